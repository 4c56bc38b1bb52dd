/** This package's version, sent in the default User-Agent (a test keeps it equal to package.json). */
export const PACKAGE_VERSION = '0.1.0';

/**
 * The User-Agent FETCH_URL sends unless told otherwise: a standard `product/version (comment)`
 * string. Some servers close the connection on an empty or library-default User-Agent (the
 * original app's "connection closed via error" on worldtimeapi.org).
 */
export const DEFAULT_USER_AGENT = `macstats-agent/${PACKAGE_VERSION} (+@macstats/tools-fetch; Node.js)`;

/** Every default of `createFetchUrlTool`, in one place. */
export const FETCH_URL_DEFAULTS = {
  /** Private, loopback and other non-public addresses are refused. */
  allowPrivateNetwork: false,
  /** One deadline covering DNS, connect, every redirect and the whole body: 15 s. */
  timeoutMs: 15_000,
  /** Bytes read from the body (after decompression) before reading stops: 5 MB. */
  maxBytes: 5 * 1024 * 1024,
  /** Characters of text handed to the model; the rest is cut with a note: 20,000. */
  maxChars: 20_000,
  /** Redirects followed, each one checked like the first request. */
  maxRedirects: 5,
  /** Time a large page's article extraction may take on its worker thread: 10 s. */
  convertTimeoutMs: 10_000,
  /** A body that inflates more than this many times its compressed size past `maxBytes` is refused. */
  maxCompressionRatio: 100,
  userAgent: DEFAULT_USER_AGENT,
} as const;
