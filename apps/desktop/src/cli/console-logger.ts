import type { Logger } from '@macstats/core';

/**
 * The app's logger: warnings and errors go to stderr as one line each; debug and info only
 * with `MACSTATS_DEBUG=1`.
 */
export function createConsoleLogger(debug: boolean): Logger {
  const line = (level: string, details: object, message?: string) => {
    const extra = Object.keys(details).length > 0 ? ` ${safeJson(details)}` : '';
    console.error(`[${level}] ${message ?? ''}${extra}`);
  };
  return {
    debug: (details, message) => debug && line('debug', details, message),
    info: (details, message) => debug && line('info', details, message),
    warn: (details, message) => line('warn', details, message),
    error: (details, message) => line('error', details, message),
  };
}

function safeJson(value: object): string {
  try {
    return JSON.stringify(value, (_key, item) => (item instanceof Error ? item.message : item));
  } catch {
    return String(value);
  }
}
