import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseEnvFile } from './parse-env-file.js';
import { updateConfigEnv } from './update-config-env.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'config-env-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('updateConfigEnv', () => {
  it('creates the file, readable by its owner only', async () => {
    const file = join(dir, 'sub', '.config.env');
    await updateConfigEnv(file, { OLLAMA_HOST: 'http://127.0.0.1:11434' });
    expect(readFileSync(file, 'utf8')).toBe('OLLAMA_HOST=http://127.0.0.1:11434\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('replaces a key in place and keeps comments, secrets and order', async () => {
    const file = join(dir, '.config.env');
    writeFileSync(file, '# settings\nexport OLLAMA_HOST=http://old:1\nDISCORD_BOT_TOKEN=abc\n');
    await updateConfigEnv(file, { OLLAMA_HOST: 'http://new:2', OLLAMA_MODEL: 'qwen2.5:7b' });
    expect(readFileSync(file, 'utf8')).toBe(
      '# settings\nOLLAMA_HOST=http://new:2\nDISCORD_BOT_TOKEN=abc\nOLLAMA_MODEL=qwen2.5:7b\n',
    );
  });

  it('drops later duplicates of a key it sets, so no reader sees the old value', async () => {
    const file = join(dir, '.config.env');
    writeFileSync(file, 'OLLAMA_MODEL=a\nX=1\nOLLAMA_MODEL=b\n');
    await updateConfigEnv(file, { OLLAMA_MODEL: 'c' });
    expect(readFileSync(file, 'utf8')).toBe('OLLAMA_MODEL=c\nX=1\n');
  });

  it('removes a key set to undefined', async () => {
    const file = join(dir, '.config.env');
    writeFileSync(file, 'OLLAMA_MODEL=a\nX=1\n');
    await updateConfigEnv(file, { OLLAMA_MODEL: undefined });
    expect(readFileSync(file, 'utf8')).toBe('X=1\n');
  });

  it('does not treat prototype names as keys it was given', async () => {
    const file = join(dir, '.config.env');
    writeFileSync(file, 'constructor=1\n');
    await updateConfigEnv(file, { OLLAMA_MODEL: 'm' });
    expect(readFileSync(file, 'utf8')).toBe('constructor=1\nOLLAMA_MODEL=m\n');
  });

  it('refuses a value with a line break, leaving the file as it was', async () => {
    const file = join(dir, '.config.env');
    writeFileSync(file, 'X=1\n');
    await expect(updateConfigEnv(file, { OLLAMA_MODEL: 'a\nDISCORD_BOT_TOKEN=stolen' })).rejects.toThrow(
      'OLLAMA_MODEL: a value in',
    );
    expect(readFileSync(file, 'utf8')).toBe('X=1\n');
  });

  it('creates a missing folder readable by its owner only', async () => {
    const file = join(dir, 'home', '.config.env');
    await updateConfigEnv(file, { OLLAMA_MODEL: 'm' });
    expect(statSync(join(dir, 'home')).mode & 0o777).toBe(0o700);
  });

  it('quotes a value that would read back otherwise, so parseEnvFile gives it back', async () => {
    const file = join(dir, '.config.env');
    const values = { A: 'key #not-a-comment', B: ' spaced ', C: '"quoted" \\ $x', D: 'plain-value' };
    await updateConfigEnv(file, values);
    expect(parseEnvFile(readFileSync(file, 'utf8')).values).toEqual(values);
    expect(readFileSync(file, 'utf8')).toContain('D=plain-value\n');
  });
});
