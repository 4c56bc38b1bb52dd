// What the clients run by the official MCP conformance suite share: they are compiled to one file
// each and import this alone (`@macstats/testing/conformance-client`), not the whole package.

/** A tool's input schema, as far as the clients read it. */
export type ConformanceToolSchema = { properties?: Record<string, { type?: string }> } | undefined;

/** Arguments that fit a tool's input schema: 2 for each number, true for each boolean, a word for each string. */
export function argumentsForSchema(schema: ConformanceToolSchema): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schema?.properties ?? {}).map(([name, property]) => [
      name,
      property.type === 'number' || property.type === 'integer'
        ? 2
        : property.type === 'boolean'
          ? true
          : 'test',
    ]),
  );
}
