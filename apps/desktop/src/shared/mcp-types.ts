/** One MCP server as the dashboard shows it (`GET /api/mcp`). */
export interface McpServerView {
  name: string;
  /** `"trust": true` in mcp.json: its words are the user's, not outside content. */
  trusted: boolean;
  status: string;
  /** Tools offered now. */
  tools: string[];
  /** Tools whose definition changed since they were approved: not offered until trusted again. */
  withheld: string[];
}
