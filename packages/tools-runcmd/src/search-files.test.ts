import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeSkipped, listSearchFiles } from './search-files.js';

describe('listSearchFiles', () => {
  let root: string;

  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'runcmd-walk-')));
    mkdirSync(join(root, 'b', 'c'), { recursive: true });
    for (let index = 0; index < 150; index++)
      writeFileSync(join(root, `f${String(index).padStart(3, '0')}`), 'x');
    writeFileSync(join(root, 'b', 'c', 'deep.txt'), 'x');
    symlinkSync(join(root, 'b'), join(root, 'link'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const folder = () => ({ path: root, stats: statSync(root) });

  it('lists regular files in name order across stat batches and skips symlinks', async () => {
    const found = await listSearchFiles([folder()], {
      maxFiles: 1000,
      maxDepth: 5,
      allowHardLinks: false,
      deniedNames: [],
    });
    const names = found.files.map((file) => file.path.slice(root.length + 1));
    expect(names).toHaveLength(151);
    expect(names[0]).toBe('b/c/deep.txt');
    expect(names.slice(1)).toEqual([...names.slice(1)].sort());
    expect(describeSkipped(found)).toBe('[grep -r skipped 1 symbolic link(s)]');
  });

  it('stops at the file limit', async () => {
    const found = await listSearchFiles([folder()], {
      maxFiles: 70,
      maxDepth: 5,
      allowHardLinks: false,
      deniedNames: [],
    });
    expect(found.tooMany).toBe(true);
    expect(found.files).toHaveLength(70);
  });

  it('does not descend past the depth limit and says so', async () => {
    const found = await listSearchFiles([folder()], {
      maxFiles: 1000,
      maxDepth: 1,
      allowHardLinks: false,
      deniedNames: [],
    });
    expect(found.files.some((file) => file.path.endsWith('deep.txt'))).toBe(false);
    expect(describeSkipped(found)).toContain('1 unreadable or too deep folder(s)');
  });
});
