import { describe, expect, it } from 'vitest';
import { htmlToText } from './html-to-text.js';

const paragraph = (words: string) =>
  `<p>${words} This sentence is here so that the paragraph is long enough, with commas, to be read as content.</p>`;

const page = (body: string, head = '<title>The Title</title>') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('htmlToText', () => {
  it('puts the title first, then the article', () => {
    const text = htmlToText(page(`<article>${paragraph('First.')}${paragraph('Second.')}</article>`));
    expect(text).toMatch(/^# The Title\n\nFirst\. This sentence[^\n]+\n\nSecond\. This sentence/);
  });

  it('leaves out navigation, asides, footers, scripts and styles', () => {
    const text = htmlToText(
      page(
        `<nav><ul><li><a href="/">Home</a></li><li><a href="/shop">Shop</a></li></ul></nav>
         <style>.x{color:red}</style><script>trackUser()</script>
         <article>${paragraph('Body.')}${paragraph('More.')}</article>
         <aside class="sidebar ad">Buy now, limited offer</aside><footer>© Footer Inc</footer>`,
      ),
    );
    expect(text).toContain('Body. This sentence');
    expect(text).not.toMatch(/Home|Shop|color:red|trackUser|Buy now|Footer Inc/);
  });

  it('keeps links as Markdown with absolute URLs resolved against the page URL', () => {
    const text = htmlToText(
      page(`<article>${paragraph('See <a href="../docs/a.html">the docs</a>.')}</article>`),
      {
        url: 'https://example.com/blog/post.html',
      },
    );
    expect(text).toContain('See [the docs](https://example.com/docs/a.html).');
  });

  it('resolves links against the page <base href>', () => {
    const html = page(
      `<article>${paragraph('<a href="x">X</a>')}</article>`,
      '<title>T</title><base href="/root/">',
    );
    expect(htmlToText(html, { url: 'https://example.com/a/b' })).toContain('[X](https://example.com/root/x)');
  });

  it('drops the link of in-page anchors and javascript: links but keeps their text', () => {
    const text = htmlToText(
      page(
        `<article>${paragraph('<a href="#notes">notes</a> and <a href="javascript:void(0)">menu</a>')}</article>`,
      ),
      { url: 'https://example.com/page' },
    );
    expect(text).toContain('notes and menu This sentence');
  });

  it('renders lists, headings, quotes and code', () => {
    const text = htmlToText(
      page(`<article><h2>Steps to follow</h2>${paragraph('Intro.')}
        <ol><li>Install it</li><li>Run it</li></ol>
        <ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>
        <blockquote><p>Quoted words here.</p></blockquote>
        <pre><code>if (x) {\n    return 1;\n}</code></pre>${paragraph('Outro.')}</article>`),
    );
    expect(text).toContain('## Steps to follow');
    expect(text).toContain('1. Install it\n2. Run it');
    expect(text).toContain('- one\n- two\n  - nested');
    expect(text).toContain('> Quoted words here.');
    expect(text).toContain('```\nif (x) {\n    return 1;\n}\n```');
  });

  it('renders a data table one row per line', () => {
    const text = htmlToText(
      page(
        `<article>${paragraph('Prices.')}<table><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>2 €</td></tr></table>${paragraph('End.')}</article>`,
      ),
    );
    expect(text).toContain('Item | Price\nTea | 2 €');
  });

  it('reads a bare fragment', () => {
    expect(htmlToText('<p>Just <b>one</b> line</p>')).toBe('Just one line');
  });

  it('decodes entities', () => {
    expect(htmlToText('<p>Fish &amp; chips &lt;3 &eacute;t&eacute; &#x263A;</p>')).toBe(
      'Fish & chips <3 été ☺',
    );
  });

  it('returns the title alone for a page without text', () => {
    expect(htmlToText(page(''))).toBe('# The Title');
  });

  it('returns an empty string for an empty document', () => {
    expect(htmlToText('')).toBe('');
  });
});
