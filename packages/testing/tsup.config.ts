import { createTsupConfig } from '../../tsup.base.js';

// The scripted MCP server runs as its own process: a second entry, not part of the index. The
// conformance clients' shared helper is a third, so a compiled client loads it alone.
export default createTsupConfig({
  entry: ['src/index.ts', 'src/scripted-mcp-server-main.ts', 'src/conformance-client.ts'],
});
