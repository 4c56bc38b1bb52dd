/**
 * Reads the model's argument as a URL: the first word (before any `; OTHER_TOOL:`), without the quotes, angle brackets or
 * trailing punctuation models wrap URLs in; `https://` is assumed when no scheme is given.
 * Returns the URL, or the sentence to answer with when there is none.
 */
export function parseTarget(argument: string): URL | string {
  // A model that writes two tools on one line ("url; BRAVE_SEARCH: q") meant the first one.
  const own = argument.split(/;\s*[A-Z][A-Z0-9_]*:/)[0] ?? '';
  const first = own.trim().split(/\s+/)[0] ?? '';
  const unwrapped = stripTrailingPunctuation(first)
    .replace(/^[<"'`([]+/, '')
    .replace(/[>"'`\]]+$/, '');
  const stripped = stripTrailingPunctuation(unwrapped);
  if (stripped === '') return 'FETCH_URL needs a URL, as in FETCH_URL: https://example.com/page';
  const withScheme = /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(stripped) ? stripped : `https://${stripped}`;
  try {
    return new URL(withScheme);
  } catch {
    return `FETCH_URL could not read "${stripped}" as a URL; give a full URL such as https://example.com/page`;
  }
}

function stripTrailingPunctuation(text: string): string {
  let result = text.replace(/[.,;:!?]+$/, '');
  // A ")" closing a parenthesis the URL never opened belongs to the sentence around it.
  while (result.endsWith(')') && count(result, '(') < count(result, ')')) {
    result = result.slice(0, -1).replace(/[.,;:!?]+$/, '');
  }
  return result;
}

function count(text: string, character: string): number {
  return text.split(character).length - 1;
}
