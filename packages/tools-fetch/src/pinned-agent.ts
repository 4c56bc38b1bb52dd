import type { LookupAddress, LookupOptions } from 'node:dns';
import { type HostPolicy, type HostResolver, resolveChecked } from '@macstats/address-policy';
import type { Logger } from '@macstats/core';
import { loadUndici } from '@macstats/core/internal';
import type { Agent } from 'undici';
import { fetchError } from './error-codes.js';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * An undici Agent whose sockets connect only to addresses the policy accepted: the name is
 * resolved once, every address it resolves to is checked, and the socket is handed exactly
 * those addresses. There is no second resolution between the check and the connect for a
 * rebinding DNS server to answer differently.
 *
 * undici is imported on the first fetch, not with the package: a process that never fetches
 * does not load it.
 */
export async function createPinnedAgent(options: {
  policy: HostPolicy;
  resolver: HostResolver;
  timeoutMs: number;
  logger: Logger;
}): Promise<Agent> {
  const { Agent } = await loadUndici();
  const { policy, resolver, logger } = options;
  const lookup = (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback) => {
    resolveChecked(hostname, {
      policy,
      resolver,
      family: lookupOptions.family,
      blocked: (sentence) => fetchError('FETCH_BLOCKED', sentence),
    }).then(
      (usable) => {
        logger.debug(
          { host: hostname, addresses: usable.map((entry) => entry.address) },
          'fetch-url: resolved',
        );
        if (lookupOptions.all) callback(null, usable as LookupAddress[]);
        else callback(null, usable[0]?.address ?? '', usable[0]?.family ?? 4);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, ''),
    );
  };
  return new Agent({
    connect: { lookup, timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
}
