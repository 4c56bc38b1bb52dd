/** What a server says about one of its tools (from `tools/list`). */
export interface McpToolInfo {
  /** The server's own name for the tool, e.g. `airbnb_search`. */
  name: string;
  /** Human-readable title, when the server gives one. */
  title?: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  inputSchema: Record<string, unknown>;
  /** Hints such as `readOnlyHint`, as the server gives them. */
  annotations?: Record<string, unknown>;
}
