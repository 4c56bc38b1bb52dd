import { describe, expect, it } from 'vitest';
import { parseEnvFile } from './parse-env-file.js';

describe('parseEnvFile', () => {
  it('reads KEY=value lines, comments, export and blank lines', () => {
    const text = '# Ollama\nOLLAMA_HOST=http://127.0.0.1:11434\n\nexport OLLAMA_MODEL = llama3.2:3b\n';
    expect(parseEnvFile(text)).toEqual({
      values: { OLLAMA_HOST: 'http://127.0.0.1:11434', OLLAMA_MODEL: 'llama3.2:3b' },
      warnings: [],
    });
  });

  it('drops an inline comment after an unquoted value but keeps a # inside one', () => {
    expect(parseEnvFile('A=one # the first\nB=abc#def').values).toEqual({ A: 'one', B: 'abc#def' });
  });

  it('reads double quotes with escapes and single quotes literally', () => {
    const text = 'A="line one\\nline \\"two\\"" # note\nB=\'raw \\n $HOME\'\nC=""';
    expect(parseEnvFile(text).values).toEqual({ A: 'line one\nline "two"', B: 'raw \\n $HOME', C: '' });
  });

  it('handles CRLF and a byte order mark', () => {
    expect(parseEnvFile('\uFEFFA=1\r\nB=2\r\n').values).toEqual({ A: '1', B: '2' });
  });

  it('lets a later line win for the same key', () => {
    expect(parseEnvFile('A=1\nA=2').values).toEqual({ A: '2' });
  });

  it('reports lines it cannot read with their line number and keeps the rest', () => {
    const parsed = parseEnvFile('A=1\nthis is not config\nB="open\nC=3', '/x/.config.env');
    expect(parsed.values).toEqual({ A: '1', C: '3' });
    expect(parsed.warnings).toEqual([
      '/x/.config.env:2: not a KEY=value line; ignored.',
      '/x/.config.env:3: the value of B has no closing quote; ignored.',
    ]);
  });
});
