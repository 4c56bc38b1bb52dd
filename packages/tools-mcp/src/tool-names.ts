import { createHash } from 'node:crypto';

/** Separates the server from the tool in names of several servers: `memory__create_entities`. */
export const SERVER_SEPARATOR = '__';

/** Loose spelling for matching: case, `-` and `.` do not matter (`get_sum` finds `get-sum`). */
export function looseName(name: string): string {
  return name.toLowerCase().replace(/[-.]/g, '_');
}

/**
 * Finds the entry the model meant: the exact name, else the server's own tool name when only
 * one server has it, else the same two in a loose spelling when that is unambiguous.
 */
export function resolveName<T extends { displayName: string; tool: { name: string } }>(
  entries: readonly T[],
  written: string,
): T | undefined {
  const tries: Array<(entry: T) => boolean> = [
    (entry) => entry.displayName === written,
    (entry) => entry.tool.name === written,
    (entry) => looseName(entry.displayName) === looseName(written),
    (entry) => looseName(entry.tool.name) === looseName(written),
  ];
  for (const matches of tries) {
    const found = entries.filter(matches);
    if (found.length === 1) return found[0];
  }
  return undefined;
}

/**
 * Function names for native tool calling: `mcp_` plus the display name, in the characters
 * model APIs accept (`[A-Za-z0-9_-]`, at most 64), unique within the list.
 */
export function functionNames(displayNames: readonly string[]): string[] {
  const used = new Set<string>();
  return displayNames.map((displayName) => {
    let name = `mcp_${displayName.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    if (name.length > 64) name = `${name.slice(0, 55)}_${hash(displayName)}`;
    if (used.has(name)) name = `${name.slice(0, 55)}_${hash(`${displayName}#${used.size}`)}`;
    used.add(name);
    return name;
  });
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}
