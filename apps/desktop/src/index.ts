// What tests and benchmarks import; the app itself starts from main.ts.
export {
  type DashboardCore,
  type DashboardFeature,
  type HttpDashboard,
  type HttpDashboardOptions,
  startHttpDashboard,
} from './server/start-dashboard.js';
