/** Where Ollama listens unless told otherwise. */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';

/** Every default of the agent, in one place. */
export const AGENT_DEFAULTS = {
  /** Ollama base URL. */
  host: DEFAULT_OLLAMA_HOST,
  /** Tool runs allowed per answer (guard-refused attempts count too). */
  maxToolIterations: 5,
  /** Ask for a `RECOMMEND:` plan before executing. */
  planning: false,
  /** Native tool calling: `'auto'` asks `/api/show` whether the model has the `tools` capability. */
  native: 'auto' as boolean | 'auto',
  /**
   * Longest wait for the first token of a reply (or a whole reply that is not streamed), in
   * milliseconds: generous, because it covers loading the model into memory.
   */
  firstTokenTimeoutMs: 300_000,
  /** Longest silence between two tokens once a reply streams, in milliseconds: a hung model. */
  betweenTokensTimeoutMs: 60_000,
  /** @deprecated The first-token limit under its old name. */
  requestTimeoutMs: 300_000,
  /** How long a model seen loaded is taken to be still loaded without asking again, in milliseconds. */
  loadedCacheMs: 5_000,
  /** Time limit of one tool run, in milliseconds. */
  toolTimeoutMs: 60_000,
  /** Tool output longer than this is cut (with a note) before the model reads it. */
  maxToolOutputChars: 12_000,
  /** How long the user has to approve a call that needs it, in milliseconds; then it is denied. */
  approvalTimeoutMs: 120_000,
  /** This many failed tool runs in a row end the tool phase. */
  maxFailuresInARow: 3,
  /** Time limit of `/api/show` and the other quick Ollama requests, in milliseconds. */
  quickRequestTimeoutMs: 5_000,
  context: {
    /** Never reserve a context window above this many tokens (`MODEL_MAX_CONTEXT`). */
    maxContextLength: 32_768,
    /** The window sent (Ollama's `num_ctx`) is rounded up to a multiple of this. */
    step: 2048,
    /** Tokens kept free for the reply, at most a quarter of the window. */
    replyTokens: 2048,
  },
  memory: {
    /** Turns kept verbatim in the prompt. */
    keepTurns: 2,
    /** A conversation untouched this long is forgotten, in milliseconds (24 hours). */
    ttlMs: 24 * 60 * 60 * 1000,
    /** Target length of the rolling summary, in characters. */
    summaryChars: 600,
    /** A summary longer than this is cut to `summaryChars`. */
    summaryHardCapChars: 650,
    /** Time limit of one summarisation request, in milliseconds. */
    summaryTimeoutMs: 60_000,
    /** How often conversations past the TTL are deleted (and once at start), in milliseconds (1 hour). */
    sweepIntervalMs: 60 * 60 * 1000,
  },
} as const;

/** The system prompt used when the app gives none. */
export const DEFAULT_SYSTEM_PROMPT =
  "You are a helpful assistant that runs on the user's own computer through Ollama. " +
  "Answer briefly and accurately, in the user's language. If you do not know, say so.";
