export { type HostResolver, parseAllowHosts, type ResolvedAddress } from '@macstats/address-policy';
export { DEFAULT_USER_AGENT, FETCH_URL_DEFAULTS } from './defaults.js';
export type { FetchErrorCode } from './error-codes.js';
export { createFetchUrlTool, FETCH_URL_PARAMETERS, type FetchUrlToolOptions } from './fetch-url-tool.js';
export { type HtmlToTextOptions, htmlToText } from './html-to-text.js';
