const marker = Symbol.for('macstats.error');

/**
 * Base of every error the packages throw. `code` is stable and machine-readable;
 * `isInstance` works across duplicate installs of the package, where `instanceof` does not.
 */
export class MacstatsError extends Error {
  readonly [marker] = true;
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MacstatsError';
    this.code = code;
  }

  static isInstance(value: unknown): value is MacstatsError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}

/** Turns a `run` result into a `ToolResult`. */
export function toToolResult(value: string | { text: string; isError?: boolean }): {
  text: string;
  isError?: boolean;
} {
  return typeof value === 'string' ? { text: value } : value;
}
