import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findLayerViolations, readWorkspace, type WorkspacePackage } from './layers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function pkg(
  name: string,
  dependencies: string[] = [],
  imports: string[] = [],
  devDependencies: string[] = [],
): WorkspacePackage {
  return { name, folder: name, dependencies, devDependencies, imports };
}

describe('the one-way dependency rule (docs/architecture.md)', () => {
  it('holds for every package in this workspace', () => {
    const packages = readWorkspace(root);
    expect(packages.map((p) => p.name)).toContain('@macstats/core');
    expect(findLayerViolations(packages)).toEqual([]);
  });

  it('refuses a tool package that imports another tool package', () => {
    const problems = findLayerViolations([
      pkg('@macstats/core'),
      pkg('@macstats/tools-fetch', ['@macstats/core']),
      pkg('@macstats/tools-brave', ['@macstats/core', '@macstats/tools-fetch'], ['@macstats/tools-fetch']),
    ]);
    expect(problems).toEqual([
      '@macstats/tools-brave (layer 2) must not depend on @macstats/tools-fetch (layer 2)',
    ]);
  });

  it('refuses core depending on a package above it', () => {
    const problems = findLayerViolations([
      pkg('@macstats/core', ['@macstats/scheduler']),
      pkg('@macstats/scheduler', ['@macstats/core']),
    ]);
    expect(problems).toContain('@macstats/core (layer 1) must not depend on @macstats/scheduler (layer 2)');
  });

  it('refuses an import of an internal package that package.json does not declare', () => {
    const problems = findLayerViolations([
      pkg('@macstats/core'),
      pkg('@macstats/metrics', [], ['@macstats/core']),
    ]);
    expect(problems).toEqual([
      '@macstats/metrics imports @macstats/core without declaring it in package.json',
    ]);
  });

  it('refuses a package on core/internal that takes core by a range', () => {
    const problems = findLayerViolations([
      pkg('@macstats/core'),
      {
        ...pkg('@macstats/tools-fetch', ['@macstats/core'], ['@macstats/core']),
        importsCoreInternal: true,
        ranges: { '@macstats/core': 'workspace:^' },
      },
    ]);
    expect(problems).toEqual([
      '@macstats/tools-fetch imports @macstats/core/internal but depends on core as "workspace:^" (use "workspace:*")',
    ]);
  });

  it('puts every package in a layer it checks: the root below the apps, and its stores beside it', () => {
    const problems = findLayerViolations([
      pkg('@macstats/core'),
      pkg('@macstats/scheduler', ['@macstats/core']),
      pkg('@macstats/observability', ['@macstats/core', '@macstats/scheduler', '@macstats/store-postgres']),
      pkg('@macstats/store-postgres', ['@macstats/core', '@macstats/scheduler']),
      pkg('@macstats/app-runtime', ['@macstats/core', '@macstats/cli']),
      pkg('@macstats/cli', ['@macstats/app-runtime']),
    ]);
    expect(problems).toEqual([
      '@macstats/observability (layer 2.5) must not depend on @macstats/store-postgres (layer 2.5)',
      '@macstats/app-runtime (layer 2.75) must not depend on @macstats/cli (layer 3)',
    ]);
  });

  it('refuses the testing package used outside tests', () => {
    const problems = findLayerViolations([
      pkg('@macstats/testing'),
      pkg('@macstats/core', ['@macstats/testing']),
    ]);
    expect(problems).toEqual(['@macstats/core uses @macstats/testing outside its tests']);
  });

  it('puts app-config beside the tools: on core, below the apps, never under core', () => {
    const problems = findLayerViolations([
      pkg('@macstats/core', ['@macstats/app-config']),
      pkg('@macstats/app-config', ['@macstats/core', '@macstats/tools-fetch']),
      pkg('@macstats/tools-fetch', ['@macstats/core']),
      pkg('@macstats/bot', ['@macstats/app-config', '@macstats/core']),
    ]);
    expect(problems).toEqual([
      '@macstats/core (layer 1) must not depend on @macstats/app-config (layer 2)',
      '@macstats/app-config (layer 2) must not depend on @macstats/tools-fetch (layer 2)',
    ]);
  });

  it('puts address-policy between core and the tools, so two tool packages share it', () => {
    const problems = findLayerViolations([
      pkg('@macstats/core'),
      pkg('@macstats/address-policy', ['@macstats/core']),
      pkg('@macstats/tools-fetch', ['@macstats/core', '@macstats/address-policy']),
      pkg('@macstats/tools-browser', ['@macstats/core', '@macstats/address-policy']),
    ]);
    expect(problems).toEqual([]);
    expect(
      findLayerViolations([
        pkg('@macstats/address-policy', ['@macstats/tools-fetch']),
        pkg('@macstats/tools-fetch'),
      ]),
    ).toEqual(['@macstats/address-policy (layer 1.5) must not depend on @macstats/tools-fetch (layer 2)']);
  });

  it('keeps observability above the libraries it counts: only apps may depend on it', () => {
    const problems = findLayerViolations([
      pkg('@macstats/core'),
      pkg('@macstats/scheduler', ['@macstats/core']),
      pkg('@macstats/observability', ['@macstats/core', '@macstats/scheduler']),
      pkg('@macstats/discord', ['@macstats/core', '@macstats/observability']),
      pkg('@macstats/bot', ['@macstats/observability']),
    ]);
    expect(problems).toEqual([
      '@macstats/discord (layer 2) must not depend on @macstats/observability (layer 2.5)',
    ]);
  });

  it('puts skills beside the tools: on core, never on a tool package, below the apps', () => {
    expect(
      findLayerViolations([
        pkg('@macstats/core'),
        pkg('@macstats/skills', ['@macstats/core']),
        pkg('@macstats/bot', ['@macstats/core', '@macstats/skills']),
      ]),
    ).toEqual([]);
    expect(
      findLayerViolations([
        pkg('@macstats/core'),
        pkg('@macstats/tools-fetch', ['@macstats/core']),
        pkg('@macstats/skills', ['@macstats/core', '@macstats/tools-fetch']),
      ]),
    ).toEqual(['@macstats/skills (layer 2) must not depend on @macstats/tools-fetch (layer 2)']);
  });

  it('puts tasks beside the tools: on core, never on a tool package', () => {
    expect(
      findLayerViolations([
        pkg('@macstats/core'),
        pkg('@macstats/tasks', ['@macstats/core']),
        pkg('@macstats/cli', ['@macstats/core', '@macstats/tasks']),
      ]),
    ).toEqual([]);
    expect(
      findLayerViolations([
        pkg('@macstats/core'),
        pkg('@macstats/tools-fetch', ['@macstats/core']),
        pkg('@macstats/tasks', ['@macstats/core', '@macstats/tools-fetch']),
      ]),
    ).toEqual(['@macstats/tasks (layer 2) must not depend on @macstats/tools-fetch (layer 2)']);
  });

  it('refuses a published package that depends on a private one', () => {
    const problems = findLayerViolations([
      { ...pkg('@macstats/loopback-guard'), private: true },
      pkg('@macstats/cli', ['@macstats/loopback-guard']),
      pkg('@macstats/other-cli', [], ['@macstats/loopback-guard'], ['@macstats/loopback-guard']),
    ]);
    expect(problems).toEqual([
      '@macstats/cli is published but depends on the private @macstats/loopback-guard',
    ]);
  });

  it('lets apps compose anything', () => {
    const problems = findLayerViolations([
      pkg('@macstats/core'),
      pkg('@macstats/tools-fetch', ['@macstats/core']),
      pkg('@macstats/bot', ['@macstats/core', '@macstats/tools-fetch']),
    ]);
    expect(problems).toEqual([]);
  });
});
