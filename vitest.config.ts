import { defineConfig } from 'vitest/config';

/** Shared test settings: every package runs `vitest run --config ../../vitest.config.ts`. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two cores on these machines: keep the pool small so servers in tests do not starve.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
