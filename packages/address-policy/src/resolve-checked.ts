import { promises as dns } from 'node:dns';
import { isIpAddress, unbracket } from './classify-address.js';
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

/**
 * Checks every address a host resolved to and returns those of the wanted family (0: any).
 * Throws `blocked(sentence)` (the caller's own error, typed by its own codes) when one is refused: a
 * name answering with one public and one private address gets no chance at the private one.
 * Throws an `ENOTFOUND` error when nothing usable is left.
 */
export function checkAddresses(
  host: string,
  addresses: readonly ResolvedAddress[],
  policy: HostPolicy,
  options: { family?: number | string | undefined; blocked: (sentence: string) => Error },
): ResolvedAddress[] {
  if (addresses.length === 0) throw notFound(undefined, host);
  for (const entry of addresses) {
    const refusal = policy.refusal(host, entry.address);
    if (refusal) throw options.blocked(refusal);
  }
  const { family } = options;
  const wanted = family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : 0;
  const usable = wanted === 0 ? addresses : addresses.filter((entry) => entry.family === wanted);
  if (usable.length === 0) throw notFound(undefined, host);
  return [...usable];
}

/**
 * Resolves `hostname` once (an IP literal is its own answer) and checks every address with
 * {@link checkAddresses}. Connect to exactly what it returns: a second resolution would give a
 * rebinding DNS server a second answer.
 */
export async function resolveChecked(
  hostname: string,
  options: {
    policy: HostPolicy;
    resolver: HostResolver;
    family?: number | string | undefined;
    /** The error a refused address throws, made by the caller's own maker (tools-fetch makes its FETCH_BLOCKED). */
    blocked: (sentence: string) => Error;
  },
): Promise<ResolvedAddress[]> {
  // "example.com." and "example.com" are one host; resolvers and the policy see the latter.
  const host = unbracket(hostname).replace(/\.$/, '');
  let addresses: ResolvedAddress[];
  try {
    addresses = isIpAddress(host)
      ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
      : await options.resolver(host);
  } catch (error) {
    throw notFound(error, host);
  }
  return checkAddresses(host, addresses, options.policy, options);
}

/** The resolver's own error, or an `ENOTFOUND` one naming the host. */
export function notFound(error: unknown, host: string): NodeJS.ErrnoException {
  if (error instanceof Error) return error as NodeJS.ErrnoException;
  const missing: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${host}`);
  missing.code = 'ENOTFOUND';
  return Object.assign(missing, { hostname: host });
}
