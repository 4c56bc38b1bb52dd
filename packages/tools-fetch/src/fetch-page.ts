import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import { type HostPolicy, isIpAddress, unbracket } from '@macstats/address-policy';
import type { Logger } from '@macstats/core';
import { loadUndici } from '@macstats/core/internal';
import type { Dispatcher } from 'undici';
import { fetchError } from './error-codes.js';
import { type BodyRead, readBody } from './read-body.js';

/** A response FETCH_URL got to the end of: the final URL, status, headers and (capped) body. */
export interface FetchedPage {
  url: URL;
  /** Every URL visited before `url`, in order. */
  redirects: URL[];
  status: number;
  statusText: string;
  contentType: string | undefined;
  /** The Content-Length the server announced, if any. */
  contentLength: number | undefined;
  /** The body; absent when `wantsBody` declined it (binaries whose size the server gave). */
  body: BodyRead | undefined;
}

/** Options of {@link fetchPage}. */
export interface FetchPageOptions {
  dispatcher: Dispatcher;
  policy: HostPolicy;
  signal: AbortSignal;
  userAgent: string;
  maxBytes: number;
  maxRedirects: number;
  maxCompressionRatio: number;
  logger: Logger;
  /**
   * Containment's check of each redirect hop (core's `RedirectCheck`): a sentence refuses the hop.
   * Absent when the send carried nothing the hops need checking for.
   */
  checkRedirect?: ((url: string) => string | undefined) | undefined;
  /** Decides from the status and headers whether the body is worth reading. */
  wantsBody(status: number, contentType: string | undefined, contentLength: number | undefined): boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs `url`, following up to `maxRedirects` redirects by hand so each hop is checked against
 * the policy like the first, and reads the final body up to `maxBytes`.
 */
export async function fetchPage(url: URL, options: FetchPageOptions): Promise<FetchedPage> {
  const { request } = await loadUndici();
  const redirects: URL[] = [];
  let current = url;
  for (;;) {
    checkTarget(current, options.policy);
    options.logger.debug({ url: current.href }, 'fetch-url: request');
    const response = await request(current, {
      dispatcher: options.dispatcher,
      method: 'GET',
      signal: options.signal,
      headers: {
        'user-agent': options.userAgent,
        accept: 'text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.9,*/*;q=0.8',
        'accept-encoding': 'gzip, deflate, br',
        'accept-language': 'en;q=0.9, *;q=0.5',
      },
    });
    const status = response.statusCode;
    const location = header(response.headers, 'location');
    if (REDIRECTS.has(status) && location) {
      discard(response.body);
      if (redirects.length >= options.maxRedirects) {
        throw fetchError(
          'FETCH_TOO_MANY_REDIRECTS',
          `stopped after ${options.maxRedirects} redirects; ${current.href} redirects again to ${location}`,
        );
      }
      redirects.push(current);
      current = nextUrl(location, current);
      const refusal = options.checkRedirect?.(current.href);
      if (refusal) throw fetchError('FETCH_REDIRECT_CONTAINED', refusal);
      continue;
    }
    const contentType = header(response.headers, 'content-type');
    const lengthHeader = header(response.headers, 'content-length');
    const contentLength = lengthHeader && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
    let body: BodyRead | undefined;
    if (options.wantsBody(status, contentType, contentLength)) {
      body = await readBody(response.body as unknown as Readable, {
        encoding: header(response.headers, 'content-encoding'),
        maxBytes: status >= 400 ? Math.min(options.maxBytes, 64 * 1024) : options.maxBytes,
        maxCompressionRatio: options.maxCompressionRatio,
      });
    } else {
      discard(response.body);
    }
    return {
      url: current,
      redirects,
      status,
      statusText: STATUS_CODES[status] ?? '',
      contentType,
      contentLength,
      body,
    };
  }
}

/**
 * Refuses what the URL alone shows is not allowed: a scheme other than http(s), or an IP
 * literal in a blocked range. Host names are checked when they resolve, in the pinned agent.
 */
export function checkTarget(url: URL, policy: HostPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fetchError(
      'FETCH_BAD_URL',
      `refused: only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}: (${url.href})`,
    );
  }
  const host = unbracket(url.hostname);
  if (isIpAddress(host)) {
    const refusal = policy.refusal(url.hostname, host);
    if (refusal) throw fetchError('FETCH_BLOCKED', refusal);
  }
}

function nextUrl(location: string, base: URL): URL {
  try {
    return new URL(location, base);
  } catch {
    throw fetchError('FETCH_BAD_REDIRECT', `${base.href} redirects to "${location}", which is not a URL`);
  }
}

/** Drops a body unread. undici reports the abort as an error event, which nobody needs here. */
function discard(body: { on(event: 'error', listener: () => void): unknown; destroy(): unknown }): void {
  body.on('error', () => {});
  body.destroy();
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
