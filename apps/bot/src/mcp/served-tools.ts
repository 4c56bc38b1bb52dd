import type { Tool } from '@macstats/core';

/** The tools `macstats mcp` serves, and a sentence for each name asked for that is not available. */
export interface ServedTools {
  tools: Tool[];
  problems: string[];
}

/**
 * Picks the tools to serve from those the catalog offers MCP (`offered('mcp')`): every one, or
 * only those `MCP_SERVE_TOOLS` names.
 */
export function selectServedTools(servable: readonly Tool[], wanted: readonly string[]): ServedTools {
  if (wanted.length === 0) return { tools: [...servable], problems: [] };
  const problems = wanted
    .filter((name) => !servable.some((tool) => tool.name === name))
    .map(
      (name) =>
        `MCP_SERVE_TOOLS names ${name}, which is not available here (available: ${servable.map((tool) => tool.name).join(', ')}).`,
    );
  return { tools: servable.filter((tool) => wanted.includes(tool.name)), problems };
}
