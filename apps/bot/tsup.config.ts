import { createTsupConfig } from '../../tsup.base.js';

export default createTsupConfig({ entry: ['src/cli.ts'], dts: false, banner: { js: '#!/usr/bin/env node' } });
