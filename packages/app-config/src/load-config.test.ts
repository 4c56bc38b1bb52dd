import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

let root: string;
let cwd: string;
let home: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'macstats-config-'));
  cwd = join(root, 'project');
  home = join(root, 'home');
  await mkdir(cwd, { recursive: true });
  await mkdir(join(home, '.mac-stats'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('takes the environment first, then ./.config.env, then $MACSTATS_HOME/.config.env', async () => {
    await writeFile(join(cwd, '.config.env'), 'OLLAMA_MODEL=from-cwd\nBRAVE_API_KEY=cwd-key\n');
    await writeFile(
      join(home, '.mac-stats', '.config.env'),
      'OLLAMA_MODEL=from-home\nBRAVE_API_KEY=home-key\nOLLAMA_HOST=http://home:11434\n',
    );
    const config = loadConfig({ env: { OLLAMA_MODEL: 'from-env' }, cwd, home });
    expect(config.get('OLLAMA_MODEL')).toBe('from-env');
    expect(config.get('BRAVE_API_KEY')).toBe('cwd-key');
    expect(config.get('OLLAMA_HOST')).toBe('http://home:11434');
    expect(config.sources).toMatchObject({
      OLLAMA_MODEL: 'env',
      BRAVE_API_KEY: join(cwd, '.config.env'),
      OLLAMA_HOST: join(home, '.mac-stats', '.config.env'),
    });
    expect(config.files).toEqual([join(cwd, '.config.env'), join(home, '.mac-stats', '.config.env')]);
  });

  it('treats an empty environment variable as unset', async () => {
    await writeFile(join(cwd, '.config.env'), 'OLLAMA_MODEL=qwen2.5:7b\n');
    expect(loadConfig({ env: { OLLAMA_MODEL: '' }, cwd, home }).get('OLLAMA_MODEL')).toBe('qwen2.5:7b');
  });

  it('finds MACSTATS_HOME in the environment and expands ~', async () => {
    await mkdir(join(home, 'data'), { recursive: true });
    await writeFile(join(home, 'data', '.config.env'), 'DISCORD_BOT_TOKEN=abc\n');
    const config = loadConfig({ env: { MACSTATS_HOME: '~/data' }, cwd, home });
    expect(config.macstatsHome).toBe(join(home, 'data'));
    expect(config.get('DISCORD_BOT_TOKEN')).toBe('abc');
    expect(config.get('MACSTATS_HOME')).toBe(join(home, 'data'));
  });

  it('defaults MACSTATS_HOME to ~/.mac-stats', () => {
    const config = loadConfig({ env: {}, cwd, home });
    expect(config.macstatsHome).toBe(join(home, '.mac-stats'));
    expect(config.values.MACSTATS_HOME).toBe(join(home, '.mac-stats'));
    expect(config.sources.MACSTATS_HOME).toBe('default');
  });

  it('reads any key through get, not only the known ones', () => {
    expect(loadConfig({ env: { MY_BOT_PREFIX: '!' }, cwd, home }).get('MY_BOT_PREFIX')).toBe('!');
  });

  it('does not list unrelated environment variables', () => {
    const config = loadConfig({ env: { PATH: '/usr/bin', OLLAMA_HOST: 'http://x:1' }, cwd, home });
    expect(config.values.PATH).toBeUndefined();
    expect(config.values.OLLAMA_HOST).toBe('http://x:1');
  });

  it('masks secrets in describe()', async () => {
    await writeFile(join(cwd, '.config.env'), 'MCP_SERVER_URL=https://u:pw@mcp.example/sse?token=abc123\n');
    const config = loadConfig({
      env: {
        DISCORD_BOT_TOKEN: 'MTA5ODc2NTQzMjEw.Gx1y2z.abcdWXYZ',
        BRAVE_API_KEY: 'short',
        OLLAMA_MODEL: 'llama3.2:3b',
      },
      cwd,
      home,
    });
    const text = config.describe();
    expect(text).toContain('DISCORD_BOT_TOKEN=****WXYZ (env)');
    expect(text).toContain('BRAVE_API_KEY=**** (env)');
    expect(text).toContain('MCP_SERVER_URL=https://mcp.example/… (');
    expect(text).toContain('OLLAMA_MODEL=llama3.2:3b (env)');
    expect(text).not.toContain('abc123');
    expect(text).not.toContain('Gx1y2z');
  });

  it('reports unreadable lines as warnings', async () => {
    await writeFile(join(cwd, '.config.env'), 'OLLAMA_HOST http://x\n');
    expect(loadConfig({ env: {}, cwd, home }).warnings).toEqual([
      `${join(cwd, '.config.env')}:1: not a KEY=value line; ignored.`,
    ]);
  });
});
