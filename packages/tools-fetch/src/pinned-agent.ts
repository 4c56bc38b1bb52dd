import type { LookupAddress, LookupOptions } from 'node:dns';
import { promises as dns } from 'node:dns';
import { type Logger, MacstatsError } from '@macstats/core';
import { Agent } from 'undici';
import { isIpAddress, unbracket } from './address-policy.js';
import type { HostPolicy } from './host-policy.js';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/** Resolves a host name to its addresses; the default asks the system resolver (`dns.lookup`). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver, as the operating system would answer a browser. */
export const systemResolver: HostResolver = (hostname) =>
  dns.lookup(hostname, { all: true, order: 'verbatim' });

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
 */
export function createPinnedAgent(options: {
  policy: HostPolicy;
  resolver: HostResolver;
  timeoutMs: number;
  logger: Logger;
}): Agent {
  const { policy, resolver, logger } = options;
  const lookup = (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback) => {
    // "example.com." and "example.com" are one host; resolvers and the policy see the latter.
    const host = unbracket(hostname).replace(/\.$/, '');
    const resolved = isIpAddress(host)
      ? Promise.resolve([{ address: host, family: host.includes(':') ? 6 : 4 }])
      : resolver(host);
    resolved.then(
      (addresses) => {
        let usable: ResolvedAddress[];
        try {
          usable = checkAddresses(host, addresses, policy, lookupOptions.family);
        } catch (error) {
          callback(error as NodeJS.ErrnoException, '');
          return;
        }
        logger.debug({ host, addresses: usable.map((entry) => entry.address) }, 'fetch-url: resolved');
        if (lookupOptions.all) callback(null, usable as LookupAddress[]);
        else callback(null, usable[0]?.address ?? '', usable[0]?.family ?? 4);
      },
      (error: unknown) => callback(asErrno(error, host), ''),
    );
  };
  return new Agent({
    connect: { lookup, timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
}

function checkAddresses(
  host: string,
  addresses: readonly ResolvedAddress[],
  policy: HostPolicy,
  family: number | string | undefined,
): ResolvedAddress[] {
  if (addresses.length === 0) throw asErrno(undefined, host);
  // Every address is checked, not only the first: a name answering with one public and one
  // private address must not get a second chance at the private one.
  for (const entry of addresses) {
    const refusal = policy.refusal(host, entry.address);
    if (refusal) throw new MacstatsError('FETCH_BLOCKED', refusal);
  }
  const wanted = family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : 0;
  const usable = wanted === 0 ? addresses : addresses.filter((entry) => entry.family === wanted);
  if (usable.length === 0) throw asErrno(undefined, host);
  return [...usable];
}

function asErrno(error: unknown, host: string): NodeJS.ErrnoException {
  if (error instanceof Error) return error as NodeJS.ErrnoException;
  const notFound: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${host}`);
  notFound.code = 'ENOTFOUND';
  return Object.assign(notFound, { hostname: host });
}
