import { createTsupConfig } from '../../tsup.base.js';

// The scripted MCP server runs as its own process: a second entry, not part of the index.
export default createTsupConfig({ entry: ['src/index.ts', 'src/scripted-mcp-server-main.ts'] });
