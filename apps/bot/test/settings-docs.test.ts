import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { APP_SETTING_KEYS } from '../src/app-config.js';

const docs = join(dirname(fileURLToPath(import.meta.url)), '../../../docs');

/** The setting names in the first column of a Markdown table whose header starts with `header`. */
function namesInTable(file: string, header: string): Set<string> {
  const lines = readFileSync(join(docs, file), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith(header));
  expect(start, `${file} has a table starting ${header}`).toBeGreaterThan(-1);
  const names = new Set<string>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const first = line.split('|')[1] ?? '';
    for (const match of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(match[1] ?? '');
  }
  return names;
}

describe('the settings in the docs', () => {
  it('docs/bot.md names every setting the bot lists, and observability.md the OTEL_* and METRICS_* ones', () => {
    const bot = namesInTable('bot.md', '| variable | meaning |');
    const observability = namesInTable('observability.md', '| setting | meaning |');
    const missing = APP_SETTING_KEYS.filter((key) =>
      /^(OTEL_|METRICS_)/.test(key) ? !observability.has(key) && !bot.has(key) : !bot.has(key),
    );
    expect(missing).toEqual([]);
  });
});
