import { errorFactory } from '@macstats/core';
import ipaddr from 'ipaddr.js';
import { classifyAddress, isIpAddress, unbracket } from './classify-address.js';

/** Decides which hosts and addresses a tool (FETCH_URL, BROWSER) may connect to. */
export interface HostPolicy {
  /** True when the host name (or literal) was opted in by `allowHosts` or `allowPrivateNetwork`. */
  isHostAllowed(hostname: string): boolean;
  /**
   * The refusal sentence for connecting to `address` on behalf of `hostname`, or `undefined`
   * when the connection may go ahead.
   */
  refusal(hostname: string, address: string): string | undefined;
}

/** Codes of the errors this package throws itself. */
export type AddressPolicyErrorCode = 'INVALID_OPTION';

const addressPolicyError = errorFactory<AddressPolicyErrorCode>();
const invalidOption = (sentence: string, cause: unknown) =>
  addressPolicyError('INVALID_OPTION', sentence, { cause });

/** Options of {@link createHostPolicy}. */
export interface HostPolicyOptions {
  /** Hosts, wildcards (`*.example.com`), addresses or CIDR ranges allowed although non-public. Default none. */
  allowHosts?: readonly string[] | undefined;
  /** Allow every non-public address. Default `false`. */
  allowPrivateNetwork?: boolean | undefined;
  /**
   * The error a malformed `allowHosts` entry throws, made by the caller (typed by its own codes).
   * Default: a `MacstatsError` with code `INVALID_OPTION`.
   */
  optionError?: ((sentence: string, cause: unknown) => Error) | undefined;
}

interface HostPattern {
  kind: 'exact' | 'suffix';
  name: string;
}

/**
 * Builds the policy from the tool's options. `allowHosts` entries are host names
 * (`intranet.example`), subdomain wildcards (`*.example.com`), IP addresses in any spelling the
 * URL parser accepts, or CIDR ranges (`192.168.1.0/24`, `fd00::/8`).
 */
export function createHostPolicy(options: HostPolicyOptions): HostPolicy {
  const patterns: HostPattern[] = [];
  const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  for (const entry of options.allowHosts ?? []) {
    const trimmed = entry.trim().toLowerCase();
    if (trimmed === '') continue;
    if (trimmed.includes('/')) {
      ranges.push(parseRange(entry, trimmed, options.optionError ?? invalidOption));
    } else if (trimmed.startsWith('*.')) {
      patterns.push({ kind: 'suffix', name: canonicalHost(trimmed.slice(2)) });
    } else {
      patterns.push({ kind: 'exact', name: canonicalHost(trimmed) });
    }
  }

  const addressAllowed = (address: string) => {
    if (ranges.length === 0) return false;
    const parsed = ipaddr.process(unbracket(address));
    return ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
  };

  const isHostAllowed = (hostname: string) => {
    if (options.allowPrivateNetwork) return true;
    const host = canonicalHost(hostname);
    return patterns.some((pattern) =>
      pattern.kind === 'exact' ? host === pattern.name : host.endsWith(`.${pattern.name}`),
    );
  };

  return {
    isHostAllowed,
    refusal(hostname, address) {
      if (isHostAllowed(hostname) || isHostAllowed(address) || addressAllowed(address)) return undefined;
      const why = classifyAddress(address);
      if (why === undefined) return undefined;
      const host = unbracket(canonicalHost(hostname));
      const subject = isIpAddress(host) ? address : `${address} (the address of ${host})`;
      return `blocked: ${subject} is ${why}; add the host to allowHosts to fetch it`;
    },
  };
}

/**
 * The host as the URL parser writes it: lower case, IDN in punycode, IPv4 in dotted decimal
 * whatever its spelling (`0x7f.1`, `2130706433`), IPv6 compressed in brackets, no trailing dot.
 */
export function canonicalHost(host: string): string {
  const bare = host.endsWith('.') ? host.slice(0, -1) : host;
  const literal = isIpAddress(bare) && bare.includes(':') ? `[${bare}]` : bare;
  try {
    const hostname = new URL(`http://${literal}/`).hostname;
    return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  } catch {
    return bare.toLowerCase();
  }
}

function parseRange(
  entry: string,
  trimmed: string,
  optionError: (sentence: string, cause: unknown) => Error,
): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  try {
    return ipaddr.parseCIDR(unbracket(trimmed));
  } catch (error) {
    throw optionError(
      `allowHosts: "${entry}" is not an address range (write it like 192.168.1.0/24 or fd00::/8).`,
      error,
    );
  }
}
