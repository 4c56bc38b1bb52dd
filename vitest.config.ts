import { defineConfig } from 'vitest/config';

/** Shared test settings: every package runs `vitest run --config ../../vitest.config.ts`. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    environment: 'node',
    // Generous: CI tests every package at once on two cores, where a 2 s test can take ten times
    // as long. These are limits for a hung test, never performance checks.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores on these machines: keep the pool small so servers in tests do not starve.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
