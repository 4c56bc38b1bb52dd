// What tests, benchmarks and scripts import; the app itself starts from main.ts.
export { type Dashboard, type DashboardOptions, startDashboard } from './server/dashboard.js';
export type { DashboardSharedState } from './server/dashboard-shared-state.js';
export type { OllamaStatus } from './server/model-probe.js';
export {
  type DashboardCore,
  type DashboardFeature,
  type HttpDashboard,
  type HttpDashboardOptions,
  startHttpDashboard,
} from './server/start-dashboard.js';
