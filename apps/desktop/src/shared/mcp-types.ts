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
  /** A remote server: it can sign in (the MCP authorization flow) from the page. */
  canSignIn: boolean;
  /** A sign-in started from the page waits for the browser. */
  signingIn: boolean;
  /** How the last sign-in from the page ended, when it did not end with the server reached. */
  signInProblem?: string;
}
