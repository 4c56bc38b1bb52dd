import { createTsupConfig } from '../../tsup.base.js';

export default createTsupConfig();
