import { defineConfig, type Options } from 'tsup';

/**
 * The one tsup configuration every package builds with: ESM only, Node 20 target,
 * declaration files, no bundling of dependencies.
 */
export function createTsupConfig(overrides: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: true,
    sourcemap: true,
    clean: true,
    treeshake: true,
    splitting: false,
    ...overrides,
  });
}
