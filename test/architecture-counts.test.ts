import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, coreStructure, packageGraph } from '../scripts/architecture.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('the structure docs/architecture.md draws (scripts/architecture.mjs)', () => {
  it('has no circle between packages', () => {
    expect(circles(packageGraph(root).graph)).toEqual([]);
  });

  it('has no circle among core’s files, type imports included', () => {
    expect(coreStructure(root).fileCircles).toEqual([]);
  });

  it('has no import back up between core’s rooms', () => {
    expect(coreStructure(root).backUp).toEqual([]);
  });

  it('finds a circle and the imports that close it', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(circles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
