import { createRequire } from 'node:module';

// entities is required at the first result formatted: a process that never searches never holds it.
const require = createRequire(import.meta.url);
const decodeHTML = (text: string): string =>
  (require('entities') as typeof import('entities')).decodeHTML(text);

/** One web result as the Brave API sends it (fields the tool reads). */
export interface BraveWebResult {
  title?: string;
  url?: string;
  description?: string;
  age?: string;
  extra_snippets?: string[];
}

/** The parts of the API's response the tool reads: `{ type: 'search', web: { results } }`. */
export interface BraveSearchResponse {
  type?: string;
  query?: { original?: string; altered?: string };
  web?: { results?: BraveWebResult[] };
}

/**
 * Writes results as a numbered list the model can cite: title, URL, then the snippet, with
 * Brave's `<strong>` highlighting stripped and entities decoded.
 */
export function formatResults(
  query: string,
  response: BraveSearchResponse,
  count: number,
  provider = 'Brave Search',
): string {
  const results = (response.web?.results ?? []).filter((result) => result.url).slice(0, count);
  const altered = response.query?.altered
    ? ` (${provider.split(' ')[0]} searched for "${cleanText(response.query.altered)}")`
    : '';
  if (results.length === 0) return `${provider} found no web results for "${query}"${altered}.`;
  const lines = [`${provider} results for "${query}"${altered}:`];
  results.forEach((result, index) => {
    lines.push('', `${index + 1}. ${cleanText(result.title ?? '') || result.url}`, `   ${result.url}`);
    const snippet = cleanText(result.description ?? '');
    const age = result.age ? `(${cleanText(result.age)}) ` : '';
    if (snippet || age) lines.push(`   ${age}${snippet}`.trimEnd());
  });
  return lines.join('\n');
}

/** Strips tags, decodes entities and collapses whitespace. */
export function cleanText(text: string): string {
  return decodeHTML(text.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}
