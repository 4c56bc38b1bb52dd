const marker = Symbol.for('macstats.error');

/**
 * Codes of the errors core throws outside its Ollama adapter (each is in the README's error
 * table); `CoreErrorCode` adds the adapter's `OllamaErrorCode`.
 */
export type CoreOwnErrorCode =
  | 'DEPENDENCY_MISSING'
  | 'EMBEDDINGS_FAILED'
  | 'INVALID_OPTION'
  | 'MODEL_POOL_NO_MEMBER';

/**
 * What an error says about the other side, as fields a caller branches on (never the code's
 * spelling): whether a server could be reached, and what it cannot do.
 */
export interface MacstatsErrorFacts {
  /** A server the call needs could not be reached, or refused the connection. Default false. */
  unreachable?: boolean;
  /** What the model's server cannot do: `'tools'`, it takes no tool list (the agent then uses the text protocol). */
  unsupported?: 'tools';
}

/**
 * Base of every error the packages throw. `code` is stable and machine-readable (each package
 * exports the union of its codes, and lists them in its README's error table);
 * `isInstance` works across duplicate installs of the package, where `instanceof` does not.
 */
export class MacstatsError<Code extends string = string> extends Error {
  readonly [marker] = true;
  readonly code: Code;
  /** See {@link MacstatsErrorFacts.unreachable}. */
  readonly unreachable: boolean;
  /** See {@link MacstatsErrorFacts.unsupported}. */
  readonly unsupported: MacstatsErrorFacts['unsupported'];

  constructor(code: Code, message: string, options?: { cause?: unknown } & MacstatsErrorFacts) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MacstatsError';
    this.code = code;
    this.unreachable = options?.unreachable === true;
    this.unsupported = options?.unsupported;
  }

  static isInstance(value: unknown): value is MacstatsError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}

/** Makes the errors of one package: see {@link errorFactory}. */
export type ErrorFactory<Code extends string> = (
  code: Code,
  message: string,
  options?: { cause?: unknown } & MacstatsErrorFacts,
) => MacstatsError<Code>;

/**
 * One package's error maker, typed by the union of its codes, so that the compiler refuses a
 * misspelt code or another package's. Without the type argument it takes no code at all.
 *
 * @example
 * export type FetchErrorCode = 'FETCH_BLOCKED' | 'FETCH_TOO_LARGE';
 * export const fetchError = errorFactory<FetchErrorCode>();
 * throw fetchError('FETCH_BLOCKED', 'That address is on this machine.');
 */
export function errorFactory<Code extends string = never>(): ErrorFactory<Code> {
  return (code, message, options) => new MacstatsError(code, message, options);
}

/** Makes the errors core throws outside its Ollama adapter. */
export const coreError = errorFactory<CoreOwnErrorCode>();

/** Turns a `run` result into a `ToolResult`. */
export function toToolResult(value: string | { text: string; isError?: boolean }): {
  text: string;
  isError?: boolean;
} {
  return typeof value === 'string' ? { text: value } : value;
}
