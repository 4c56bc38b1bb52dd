import { describe, expect, it } from 'vitest';
import { roughText } from './rough-text.js';

describe('roughText', () => {
  it('keeps the words of the page and drops its markup', () => {
    expect(roughText('<html><body><h1>Title</h1><p>One <b>two</b> three.</p></body></html>')).toBe(
      'Title One two three.',
    );
  });

  it('drops scripts, styles, comments and the head', () => {
    const html =
      '<head><title>t</title><style>p{color:red}</style></head><body><script>var a = "<p>x</p>";</script><!-- note <p>hidden</p> --><p>shown</p></body>';
    expect(roughText(html)).toBe('# t\n\nshown');
  });

  it('drops the rest of the page after a script that is never closed', () => {
    expect(roughText('<p>before</p><script>while (1) {} <p>after</p>')).toBe('before');
  });

  it('decodes the common entities and numeric references', () => {
    expect(roughText('<p>a &amp; b &lt;c&gt; &quot;d&quot; &#233; &#x1F600; &bogus;</p>')).toBe(
      'a & b <c> "d" é 😀 &bogus;',
    );
  });

  it('keeps line breaks of the source and collapses other spaces', () => {
    expect(roughText('<p>one   two</p>\n\n\n<p>three</p>')).toBe('one two\nthree');
  });

  it('reads a page of many unclosed tags through to the end', () => {
    const hostile = '<script'.repeat(200_000);
    expect(roughText(`text${hostile}`)).toBe('text');
    expect(roughText(`${'<a'.repeat(200_000)}`)).toBe('');
  });
});
