/** Every default of the OpenAI-compatible model, in one place. */
export const OPENAI_MODEL_DEFAULTS = {
  /** Time limit of a chat request when the request gives none, in milliseconds. */
  requestTimeoutMs: 180_000,
  /** Time limit of the quick requests (`/v1/models`, `/props`), in milliseconds. */
  quickRequestTimeoutMs: 5_000,
  /**
   * Sent as the bearer token when no key is given: local servers ignore it, and the client
   * refuses to start without one.
   */
  placeholderApiKey: 'no-key',
} as const;
