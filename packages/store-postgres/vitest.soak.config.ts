import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.config.ts';

/** The three-host failover run: minutes of wall time and real SIGKILL/SIGSTOP, so not in `npm test`. */
export default mergeConfig(
  shared,
  defineConfig({ test: { include: ['test/**/*.soak.ts'], testTimeout: 300_000 } }),
);
