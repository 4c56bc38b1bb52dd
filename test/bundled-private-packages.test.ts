import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}

const manifest = (folder: string) =>
  JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as Manifest;

/**
 * The dependencies of the private packages an app's build bundles in (`noExternal`) that the app
 * does not declare: its build would inline a copy of each, and the CLI, which bundles the
 * dashboard's built server, would then carry that package twice.
 */
function undeclaredDependencies(app: Manifest, bundled: readonly Manifest[]): string[] {
  const inlined = new Set(bundled.map((entry) => entry.name));
  const declared = new Set(Object.keys(app.dependencies ?? {}));
  return bundled.flatMap((entry) =>
    Object.keys(entry.dependencies ?? {})
      .filter((name) => !inlined.has(name) && !declared.has(name))
      .map((name) => `${app.name} bundles ${entry.name} but does not declare its dependency ${name}`),
  );
}

describe('the private packages the dashboard bundles in', () => {
  it('leave every dependency of theirs to the dashboard, which declares it', () => {
    const config = readFileSync(join(root, 'apps/desktop/tsup.config.ts'), 'utf8');
    const names = [
      ...(/noExternal:\s*\[([^\]]*)\]/.exec(config)?.[1] ?? '').matchAll(/'@macstats\/([^']+)'/g),
    ].map((match) => match[1] as string);
    expect(names).toContain('loopback-guard');
    // app-runtime stays an import: bundled in, it would need its tool packages declared here,
    // and no app lists a tool package (test/tool-catalog.test.ts).
    expect(names).not.toContain('app-runtime');
    const bundled = names.map((name) => manifest(`packages/${name}`));
    expect(undeclaredDependencies(manifest('apps/desktop'), bundled)).toEqual([]);
  });

  it('finds a dependency of a bundled package the app does not declare', () => {
    const app = { name: 'app', dependencies: { '@macstats/core': 'workspace:*' } };
    const bundled = [
      {
        name: '@macstats/app-runtime',
        dependencies: { '@macstats/core': 'workspace:*', '@macstats/model-openai': '^1' },
      },
    ];
    expect(undeclaredDependencies(app, bundled)).toEqual([
      'app bundles @macstats/app-runtime but does not declare its dependency @macstats/model-openai',
    ]);
  });
});
