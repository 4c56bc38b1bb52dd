import { BRAVE_SEARCH_DEFAULTS } from './defaults.js';

/** A query ready for the API, and whether it had to be shortened to fit. */
export interface PreparedQuery {
  query: string;
  shortened: boolean;
}

/**
 * Turns the model's argument into a query: stops at a `; OTHER_TOOL:` a model may have
 * appended, drops wrapping quotes, collapses whitespace, and keeps at most 50 words and 400
 * characters (the API's limits), cutting at a word. Returns the sentence to answer with when
 * nothing is left.
 */
export function prepareQuery(argument: string, toolName = 'BRAVE_SEARCH'): PreparedQuery | string {
  const own = argument.split(/;\s*[A-Z][A-Z0-9_]*:/)[0] ?? '';
  const unquoted = own.trim().replace(/^["'“”«]+|["'“”»]+$/g, '');
  const words = unquoted.split(/\s+/).filter((word) => word !== '');
  if (words.length === 0) return `${toolName} needs a query, as in ${toolName}: weather in Lisbon tomorrow`;
  let kept = words.slice(0, BRAVE_SEARCH_DEFAULTS.maxQueryWords);
  let query = kept.join(' ');
  while (query.length > BRAVE_SEARCH_DEFAULTS.maxQueryChars && kept.length > 1) {
    kept = kept.slice(0, -1);
    query = kept.join(' ');
  }
  if (query.length > BRAVE_SEARCH_DEFAULTS.maxQueryChars)
    query = [...query].slice(0, BRAVE_SEARCH_DEFAULTS.maxQueryChars).join('');
  return { query, shortened: kept.length < words.length || query !== kept.join(' ') };
}

/** The cache key of a query: case and spacing do not make a different search. */
export function queryKey(query: string, count: number): string {
  return `${count}\u0000${query.toLowerCase()}`;
}
