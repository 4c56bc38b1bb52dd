import { describe, expect, it } from 'vitest';
import { cleanText, formatResults } from './format-results.js';

describe('cleanText', () => {
  it('strips tags and decodes named and numeric entities', () => {
    expect(cleanText('<strong>Fish</strong> &amp; chips&nbsp;&#8212; &#x27;fresh&#39; &eacute;')).toBe(
      "Fish & chips — 'fresh' é",
    );
  });
});

describe('formatResults', () => {
  it('skips results without a URL and falls back to the URL as title', () => {
    const text = formatResults(
      'q',
      { web: { results: [{ title: 'no url' }, { url: 'https://a.example/' }] } },
      5,
    );
    expect(text).toBe('Brave Search results for "q":\n\n1. https://a.example/\n   https://a.example/');
  });

  it('says which query Brave actually ran when it altered it', () => {
    const text = formatResults('nodjs', { query: { altered: 'nodejs' }, web: { results: [] } }, 5);
    expect(text).toBe('Brave Search found no web results for "nodjs" (Brave searched for "nodejs").');
  });

  it('reads a response without a web section as no results', () => {
    expect(formatResults('q', { type: 'search' }, 5)).toBe('Brave Search found no web results for "q".');
  });
});
