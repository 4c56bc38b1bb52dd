import { createTsupConfig } from '../../tsup.base.js';

// Splitting keeps each command's dependencies in its own chunk, loaded only when it runs.
export default createTsupConfig({
  entry: ['src/cli.ts'],
  dts: false,
  splitting: true,
  banner: { js: '#!/usr/bin/env node' },
});
