export {
  bearerToken,
  createLaunchToken,
  createTokenMatcher,
  isLoopbackHost,
  isLoopbackOrigin,
  loopbackHosts,
  loopbackOrigins,
} from './loopback-guard.js';
