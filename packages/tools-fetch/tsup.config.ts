import { createTsupConfig } from '../../tsup.base.js';

// The worker that turns large pages into text is its own file, loaded by URL at run time.
export default createTsupConfig({
  entry: ['src/index.ts', 'src/convert-worker.ts'],
  dts: { entry: 'src/index.ts' },
});
