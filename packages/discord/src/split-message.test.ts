import { describe, expect, it } from 'vitest';
import { endsInsideFence, renderedWords } from '../test/harness.js';
import { MIN_SPLIT_LIMIT, splitMessage } from './split-message.js';

/** A small deterministic random generator (mulberry32). */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomMarkdown(next: () => number): string {
  const word = () =>
    'abcdefghijklmnopqrstuvwxyz'.slice(0, 1 + Math.floor(next() * 12)) + Math.floor(next() * 100);
  const sentence = () => Array.from({ length: 3 + Math.floor(next() * 25) }, word).join(' ');
  const blocks: string[] = [];
  for (let count = 2 + Math.floor(next() * 12); count > 0; count--) {
    const kind = next();
    if (kind < 0.55) blocks.push(Array.from({ length: 1 + Math.floor(next() * 4) }, sentence).join(' '));
    else if (kind < 0.7)
      blocks.push(Array.from({ length: 2 + Math.floor(next() * 5) }, () => `- ${sentence()}`).join('\n'));
    else {
      const lang = ['ts', 'python', '', 'sh'][Math.floor(next() * 4)];
      const lines = Array.from({ length: 2 + Math.floor(next() * 30) }, () =>
        next() < 0.1 ? '' : `${'  '.repeat(Math.floor(next() * 3))}${word()} = ${word()}(${word()});`,
      );
      blocks.push(`\`\`\`${lang}\n${lines.join('\n')}\n\`\`\``);
    }
  }
  return blocks.join('\n\n');
}

describe('splitMessage', () => {
  it('returns text that fits as one part', () => {
    expect(splitMessage('Hello there.')).toEqual(['Hello there.']);
  });

  it('returns a text of exactly the limit as one part', () => {
    const text = 'x'.repeat(2000);
    expect(splitMessage(text)).toEqual([text]);
  });

  it('returns no parts for empty or blank text', () => {
    expect(splitMessage('')).toEqual([]);
    expect(splitMessage(' \n\n ')).toEqual([]);
  });

  it('splits at a paragraph break when one is in the second half of the window', () => {
    const first = 'a '.repeat(600).trim();
    const second = 'b '.repeat(600).trim();
    expect(splitMessage(`${first}\n\n${second}`)).toEqual([first, second]);
  });

  it('prefers a paragraph break over a later line break', () => {
    const text = `${'p'.repeat(1200)}\n\n${'q'.repeat(500)}\n${'r'.repeat(500)}`;
    expect(splitMessage(text)[0]).toBe('p'.repeat(1200));
  });

  it('splits at a line break when there is no paragraph break', () => {
    const lines = Array.from({ length: 60 }, (_, index) => `line ${index} ${'x'.repeat(40)}`);
    const parts = splitMessage(lines.join('\n'));
    expect(parts).toHaveLength(2);
    expect(parts.join('\n')).toBe(lines.join('\n'));
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(2000);
  });

  it('splits at a space when a paragraph has no line breaks', () => {
    const words = Array.from({ length: 800 }, (_, index) => `word${index}`);
    const parts = splitMessage(words.join(' '));
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join(' ')).toBe(words.join(' '));
  });

  it('cuts inside a word only when the word is longer than the limit', () => {
    const parts = splitMessage('y'.repeat(4500));
    expect(parts.map((part) => part.length)).toEqual([2000, 2000, 500]);
  });

  it('never separates the halves of a surrogate pair', () => {
    const parts = splitMessage(`a${'😀'.repeat(1500)}`);
    expect(parts.join('')).toBe(`a${'😀'.repeat(1500)}`);
    for (const part of parts) expect(part).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
  });

  it('closes a code block at the end of a part and reopens it with its language in the next', () => {
    const code = Array.from({ length: 200 }, (_, index) => `const value${index} = compute(${index});`);
    const text = `Here is the code:\n\n\`\`\`ts\n${code.join('\n')}\n\`\`\`\n\nThat is all.`;
    const parts = splitMessage(text);
    expect(parts.length).toBeGreaterThan(2);
    for (const [index, part] of parts.entries()) {
      expect(part.length).toBeLessThanOrEqual(2000);
      expect(endsInsideFence(part)).toBe(false);
      if (index > 0 && index < parts.length - 1) expect(part.startsWith('```ts\n')).toBe(true);
    }
    expect(parts.flatMap(renderedWords)).toEqual(renderedWords(text));
  });

  it('keeps a code block whole in the next part rather than opening it at the end of one', () => {
    const prose = 'Intro words here. '.repeat(90).trim();
    const code = `\`\`\`py\n${'print(1)\n'.repeat(50)}\`\`\``;
    const parts = splitMessage(`${prose}\n${code}`);
    expect(parts[0]).toBe(prose);
    expect(parts[1]).toBe(code);
  });

  it('keeps indentation and blank lines inside code across a split', () => {
    const code = Array.from({ length: 200 }, (_, index) =>
      index % 10 === 5 ? '' : `    indented(${index})`,
    );
    const text = `\`\`\`\n${code.join('\n')}\n\`\`\``;
    const parts = splitMessage(text, 500);
    const inner = parts.map((part) => part.replace(/^```\n/, '').replace(/\n```$/, ''));
    expect(inner.join('\n')).toBe(code.join('\n'));
  });

  it('reopens a fence longer than three backticks with the same marker', () => {
    const text = `\`\`\`\`md\n${'```js\nx\n```\n'.repeat(40)}\`\`\`\``;
    const parts = splitMessage(text, 200);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.startsWith('````md\n')).toBe(true);
      expect(part.endsWith('\n````')).toBe(true);
    }
  });

  it('turns CRLF line endings into LF', () => {
    expect(splitMessage('one\r\ntwo\rthree')).toEqual(['one\ntwo\nthree']);
  });

  it('refuses a limit too small to reopen a code block', () => {
    expect(() => splitMessage('text', MIN_SPLIT_LIMIT - 1)).toThrow(RangeError);
    expect(() => splitMessage('text', 100.5)).toThrow(/integer/);
  });

  it('splits a 5,000-character answer with a code block into parts that each render correctly', () => {
    const code = Array.from({ length: 70 }, (_, index) => `  result.push(transform(items[${index}]));`);
    const text = [
      'Short intro paragraph. '.repeat(50).trim(),
      `\`\`\`javascript\nfunction run(items) {\n  const result = [];\n${code.join('\n')}\n  return result;\n}\n\`\`\``,
      'Closing remarks. '.repeat(80).trim(),
    ].join('\n\n');
    expect(text.length).toBeGreaterThan(5000);
    const parts = splitMessage(text);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(2000);
      expect(endsInsideFence(part)).toBe(false);
    }
    expect(parts.flatMap(renderedWords)).toEqual(renderedWords(text));
  });

  it('keeps every word whole, in order and in its code block, over 200 random markdown texts', () => {
    const next = random(20_260_101);
    for (let round = 0; round < 200; round++) {
      const text = randomMarkdown(next);
      const limit = 64 + Math.floor(next() * 600);
      const parts = splitMessage(text, limit);
      for (const part of parts) {
        expect(part.length).toBeLessThanOrEqual(limit);
        expect(part.trim()).not.toBe('');
        expect(endsInsideFence(part)).toBe(false);
      }
      expect(parts.flatMap(renderedWords)).toEqual(renderedWords(text));
    }
  });

  it('keeps every character in order and in its code block when long words force hard cuts', () => {
    const next = random(7);
    const chars = (text: string) =>
      renderedWords(text).flatMap((word) => {
        const [tag, ...rest] = word.split(':');
        return [...rest.join(':')].map((char) => `${tag}:${char}`);
      });
    for (let round = 0; round < 120; round++) {
      const long = 'Z'.repeat(50 + Math.floor(next() * 900));
      const text = randomMarkdown(next).replace(/ = /, ` = ${long} `).replace(' ', ` ${long}x `);
      const limit = 64 + Math.floor(next() * 300);
      const parts = splitMessage(text, limit);
      for (const part of parts) {
        expect(part.length).toBeLessThanOrEqual(limit);
        expect(endsInsideFence(part)).toBe(false);
      }
      expect(parts.flatMap(chars)).toEqual(chars(text));
    }
  });
});
