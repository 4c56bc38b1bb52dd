import { describe, expect, it } from 'vitest';
import { type AriaNode, renderSnapshot } from './render-snapshot.js';

const viewport = { width: 1000, height: 600 };
const box = (y: number) => ({ x: 0, y, width: 100, height: 20 });

describe('renderSnapshot', () => {
  it('writes elements as [ref] role "name", headings, list items and labels once', () => {
    const nodes: AriaNode[] = [
      { role: 'heading', level: 1, name: 'Welcome', ref: 'e1' },
      { role: 'list', children: [{ role: 'listitem', text: 'First' }] },
      { role: 'generic', children: ['Email', { role: 'textbox', name: 'Email', ref: 'e5' }] },
      { role: 'checkbox', ref: 'e6', checked: true, name: 'Remember me' },
      {
        role: 'combobox',
        ref: 'e7',
        children: [
          { role: 'option', name: 'One' },
          { role: 'option', name: 'Two', selected: true },
        ],
      },
      { role: 'button', name: 'Sign in', ref: 'e8' },
    ];
    expect(renderSnapshot(nodes, { budgetTokens: 1000, viewport })).toBe(
      [
        '# Welcome',
        '- First',
        '[e5] textbox "Email"',
        '[e6] checkbox "Remember me" checked',
        '[e7] combobox: One, Two*',
        '[e8] button "Sign in"',
      ].join('\n'),
    );
  });

  it('puts what is on screen first when the page is over budget and says what it left out', () => {
    const nodes: AriaNode[] = [
      { role: 'paragraph', text: 'a'.repeat(60), box: box(-400) },
      { role: 'button', name: 'Visible', ref: 'e2', box: box(100) },
      { role: 'paragraph', text: 'b'.repeat(60), box: box(2000) },
    ];
    const text = renderSnapshot(nodes, { budgetTokens: 20, viewport });
    expect(text.split('\n')[0]).toBe('[e2] button "Visible"');
    expect(text).toContain('more lines of this page left out to keep within 20 tokens');
  });
});
