/** Every default of the OpenAI-compatible model, in one place. */
export const OPENAI_MODEL_DEFAULTS = {
  /** Longest wait for the first token (model loading included), in milliseconds. */
  firstTokenTimeoutMs: 300_000,
  /** Longest silence between two streamed tokens, in milliseconds: a hung model. */
  betweenTokensTimeoutMs: 60_000,
  /** Time limit of the quick requests (`/v1/models`, `/props`), in milliseconds. */
  quickRequestTimeoutMs: 5_000,
  /**
   * Sent as the bearer token when no key is given: local servers ignore it, and the client
   * refuses to start without one.
   */
  placeholderApiKey: 'no-key',
} as const;
