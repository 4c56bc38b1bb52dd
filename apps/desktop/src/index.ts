// What tests and benchmarks import; the app itself starts from main.ts.
export { RUN_JS_UNAVAILABLE } from './server/run-js-bridge.js';
export {
  type DashboardCore,
  type DashboardFeature,
  type HttpDashboard,
  type HttpDashboardOptions,
  startHttpDashboard,
} from './server/start-dashboard.js';
