import { MacstatsError } from '@macstats/core';
import { storeError } from './error-codes.js';

const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

/** `host:port/database` of a connection URL, without its user or password. */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'the configured database';
  }
}

/**
 * Turns a failure to connect into one sentence that names the server and the fix (never the
 * password); other errors come back as they are.
 */
export function describeConnectError(error: unknown, url: string): unknown {
  return describeDatabaseError(error, describeDatabase(url));
}

/**
 * {@link describeConnectError} for a database already named (`host:port/database`): what a
 * shared store's reads and edits throw when the server went away after the start.
 */
export function describeDatabaseError(error: unknown, where: string): unknown {
  if (MacstatsError.isInstance(error)) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && unreachableCodes.has(code)) {
    return storeError(
      'DATABASE_UNREACHABLE',
      `Cannot reach PostgreSQL at ${where} (${code}); check DATABASE_URL and that the server is running.`,
      { cause: error, unreachable: true },
    );
  }
  if (code === '28P01' || code === '28000' || code === '3D000') {
    return storeError(
      'DATABASE_REFUSED',
      `PostgreSQL at ${where} refused the connection (${(error as Error).message}); check the user, password and database in DATABASE_URL.`,
      { cause: error, unreachable: true },
    );
  }
  return error;
}

/** Runs `work`, turning a lost or refused connection into {@link describeDatabaseError}'s sentence. */
export async function describingFailures<T>(where: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw describeDatabaseError(error, where);
  }
}
