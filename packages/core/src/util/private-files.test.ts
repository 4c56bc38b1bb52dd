import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appendPrivateFile,
  createPrivateFile,
  findLoosePaths,
  tightenPrivateTree,
  writePrivateFile,
} from './private-files.js';

let root: string;
let previousMask: number;
beforeEach(async () => {
  // A permissive umask, as some machines have: the modes must not depend on it.
  previousMask = process.umask(0o002);
  root = await mkdtemp(join(tmpdir(), 'private-files-'));
});
afterEach(async () => {
  process.umask(previousMask);
  await rm(root, { recursive: true, force: true });
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('private files', () => {
  it('writes a file 0600 in new folders 0700', async () => {
    const file = join(root, 'a', 'b', 'state.json');
    await writePrivateFile(file, '{}\n');
    expect(await modeOf(join(root, 'a'))).toBe(0o700);
    expect(await modeOf(join(root, 'a', 'b'))).toBe(0o700);
    expect(await modeOf(file)).toBe(0o600);
  });

  it('makes a file it rewrites 0600 even when it was 0644', async () => {
    const file = join(root, 'state.json');
    await writeFile(file, 'old');
    await chmod(file, 0o644);
    await writePrivateFile(file, 'new');
    expect(await modeOf(file)).toBe(0o600);
  });

  it('appends to a new file created 0600', async () => {
    const file = join(root, 'logs', 'runs.jsonl');
    await appendPrivateFile(file, 'one\n');
    await appendPrivateFile(file, 'two\n');
    expect(await modeOf(file)).toBe(0o600);
    expect(await modeOf(join(root, 'logs'))).toBe(0o700);
  });

  it('creates a lock 0600 and refuses one that exists', async () => {
    const lock = join(root, 'x.lock');
    await createPrivateFile(lock, 'held');
    expect(await modeOf(lock)).toBe(0o600);
    await expect(createPrivateFile(lock)).rejects.toMatchObject({ code: 'EEXIST' });
  });

  it('finds and tightens every loose folder and file, keeping the owner-execute bit and leaving links', async () => {
    await mkdir(join(root, 'tasks'), { mode: 0o755 });
    await chmod(join(root, 'tasks'), 0o755);
    await writeFile(join(root, 'tasks', 't1.md'), 'x');
    await chmod(join(root, 'tasks', 't1.md'), 0o644);
    await writeFile(join(root, 'run.sh'), 'x');
    await chmod(join(root, 'run.sh'), 0o755);
    const outside = await mkdtemp(join(tmpdir(), 'private-files-outside-'));
    await chmod(outside, 0o755);
    await symlink(outside, join(root, 'link'));
    await chmod(root, 0o755);

    const loose = await findLoosePaths(root);
    expect(loose.map((entry) => entry.path).sort()).toEqual(
      [root, join(root, 'run.sh'), join(root, 'tasks'), join(root, 'tasks', 't1.md')].sort(),
    );
    expect(await tightenPrivateTree(root)).toHaveLength(4);
    expect(await findLoosePaths(root)).toEqual([]);
    expect(await modeOf(join(root, 'run.sh'))).toBe(0o700);
    expect(await modeOf(join(root, 'tasks', 't1.md'))).toBe(0o600);
    expect(await modeOf(outside)).toBe(0o755);
    await rm(outside, { recursive: true, force: true });
  });
});
