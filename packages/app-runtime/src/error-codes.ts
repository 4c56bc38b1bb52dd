/** Codes of the errors this package throws (each is in the README's Errors section). */
export type AppRuntimeErrorCode =
  | 'MODEL_UNAVAILABLE'
  | 'MODEL_NOT_INSTALLED'
  | 'AGENT_NOT_FOUND'
  | 'NO_FIXED_AGENT';
