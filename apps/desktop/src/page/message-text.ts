import { h } from './dom.js';

/**
 * Renders a chat message as text: paragraphs keep their line breaks and fenced code blocks
 * become `<pre>`. Nothing is parsed as HTML, so a reply can never inject markup.
 */
export function renderMessage(text: string): HTMLElement[] {
  const parts = text.split(/^```[^\n]*\n?/m);
  const nodes: HTMLElement[] = [];
  parts.forEach((part, index) => {
    if (part === '') return;
    // Odd parts sit between fences (an unfinished fence while streaming counts as code too).
    if (index % 2 === 1) nodes.push(h('pre', { class: 'code' }, part.replace(/\n$/, '')));
    else nodes.push(h('p', {}, part.replace(/^\n+|\n+$/g, '')));
  });
  return nodes;
}
