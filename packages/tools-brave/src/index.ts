export {
  BRAVE_SEARCH_PARAMETERS,
  type BraveSearchToolOptions,
  createBraveSearchTool,
  createBraveSearchToolIfConfigured,
  type SearchToolOptions,
} from './brave-search-tool.js';
export { BRAVE_SEARCH_DEFAULTS } from './defaults.js';
export type { SearchErrorCode } from './error-codes.js';
export type { BraveSearchResponse, BraveWebResult } from './format-results.js';
export {
  createWebSearchTool,
  WEB_SEARCH_PARAMETERS,
  type WebSearchToolOptions,
} from './searxng-search-tool.js';
