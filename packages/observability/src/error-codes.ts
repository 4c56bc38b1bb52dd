/** Codes of the errors this package throws (each is in the README's error table). */
export type ObservabilityErrorCode = 'METRICS_LISTEN_FAILED';
