import { createTsupConfig } from '../../tsup.base.js';

export default createTsupConfig({ entry: ['src/main.ts'], dts: false });
