import { describe, expect, it } from 'vitest';
import { functionNames, resolveName } from './tool-names.js';

const entry = (displayName: string, name: string) => ({ displayName, tool: { name } });
const entries = [
  entry('files__read_file', 'read_file'),
  entry('memory__read_graph', 'read_graph'),
  entry('left__echo', 'echo'),
  entry('right__echo', 'echo'),
];

describe('resolveName', () => {
  it('finds the exact name', () => {
    expect(resolveName(entries, 'memory__read_graph')).toBe(entries[1]);
  });

  it('finds a bare tool name that only one server has', () => {
    expect(resolveName(entries, 'read_file')).toBe(entries[0]);
  });

  it('finds a loosely spelled name', () => {
    expect(resolveName(entries, 'Files__Read-File')).toBe(entries[0]);
  });

  it('finds nothing for a bare name two servers share', () => {
    expect(resolveName(entries, 'echo')).toBeUndefined();
  });
});

describe('functionNames', () => {
  it('prefixes mcp_ and keeps the characters model APIs accept', () => {
    expect(functionNames(['get-sum', 'github.create_issue'])).toEqual([
      'mcp_get-sum',
      'mcp_github_create_issue',
    ]);
  });

  it('keeps names within 64 characters', () => {
    const [name] = functionNames([`server__${'x'.repeat(80)}`]);
    expect(name).toHaveLength(64);
  });

  it('makes names unique when two spellings collapse into one', () => {
    const names = functionNames(['a.b', 'a_b']);
    expect(new Set(names).size).toBe(2);
  });
});
