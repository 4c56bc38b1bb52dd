import { afterEach, describe, expect, it, vi } from 'vitest';
// @ts-expect-error: a script of the repository, in plain JavaScript without types.
import { buildWithProgress } from '../scripts/build-progress.mjs';

/** A stand-in for turbo: prints `lines` as turbo's full logs do, then exits with `code`. */
function fakeTurbo(lines: string[], code: number): [string, string[]] {
  const script = `for (const line of ${JSON.stringify(lines)}) console.log(line); process.exit(${code});`;
  return [process.execPath, ['-e', script]];
}

afterEach(() => vi.restoreAllMocks());

describe("npm start's build progress", () => {
  it('prints one line per package as it starts, with how far along the build is', async () => {
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    const [command, args] = fakeTurbo(
      [
        ' • Running build in 2 packages',
        '@macstats/core:build: cache miss, executing 1234',
        '@macstats/core:build: ESM Build success',
        '@macstats/cli:build: cache hit, replaying logs 5678',
      ],
      0,
    );
    expect(await buildWithProgress(command, args, {})).toBe(0);
    expect(printed).toEqual(['building @macstats/core (1 of 2)', 'building @macstats/cli (2 of 2)']);
  });

  it('prints the whole output of a package that fails, and its exit code', async () => {
    const errors: string[] = [];
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
    const [command, args] = fakeTurbo(
      [
        ' • Running build in 1 packages',
        '@macstats/core:build: src/a.ts(1,1): error TS2304: Cannot find name x.',
        '@macstats/core:build: DTS Build error',
      ],
      1,
    );
    expect(await buildWithProgress(command, args, {})).toBe(1);
    expect(errors.join('\n')).toContain(
      '@macstats/core failed:\nsrc/a.ts(1,1): error TS2304: Cannot find name x.',
    );
  });
});
