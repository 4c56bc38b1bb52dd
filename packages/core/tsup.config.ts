import { createTsupConfig } from '../../tsup.base.js';

// One entry per subpath of the exports map; shared code goes to chunks (splitting), so a class
// such as MacstatsError or ContextLabels exists once however many subpaths a program imports.
export default createTsupConfig({
  entry: { index: 'src/index.ts', parser: 'src/parser/index.ts', internal: 'src/internal.ts' },
  splitting: true,
});
