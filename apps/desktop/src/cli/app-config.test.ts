import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_OLLAMA_HOST } from '@macstats/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseHost, readAppConfig } from './app-config.js';

let root: string;
let cwd: string;
let userHome: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'app-config-'));
  cwd = join(root, 'project');
  userHome = join(root, 'user');
  mkdirSync(cwd);
  mkdirSync(join(userHome, '.mac-stats'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('readAppConfig', () => {
  it('defaults to ~/.mac-stats and the local Ollama', () => {
    const config = readAppConfig({}, cwd, userHome);
    expect(config.home).toBe(join(userHome, '.mac-stats'));
    expect(config.ollamaHost).toBe(DEFAULT_OLLAMA_HOST);
    expect(config.ollamaModel).toBeUndefined();
  });

  it('takes the environment first, then ./.config.env, then $MACSTATS_HOME/.config.env', () => {
    writeFileSync(join(cwd, '.config.env'), 'OLLAMA_MODEL=from-cwd\nBRAVE_API_KEY=cwd-key\n');
    writeFileSync(
      join(userHome, '.mac-stats', '.config.env'),
      'OLLAMA_MODEL=from-home\nOLLAMA_HOST=http://home:1\nX=home\n',
    );
    const config = readAppConfig({ OLLAMA_HOST: 'http://env:2' }, cwd, userHome);
    expect(config.ollamaHost).toBe('http://env:2');
    expect(config.ollamaModel).toBe('from-cwd');
    expect(config.values['X']).toBe('home');
    expect(config.fixedAboveHomeFile.sort()).toEqual(['BRAVE_API_KEY', 'OLLAMA_HOST', 'OLLAMA_MODEL']);
  });

  it("reads MACSTATS_HOME from ./.config.env and then that folder's file", () => {
    const data = join(root, 'data');
    mkdirSync(data);
    writeFileSync(join(cwd, '.config.env'), `MACSTATS_HOME=${data}\n`);
    writeFileSync(join(data, '.config.env'), 'OLLAMA_MODEL=from-data\n');
    const config = readAppConfig({}, cwd, userHome);
    expect(config.home).toBe(data);
    expect(config.ollamaModel).toBe('from-data');
  });

  it('reads DATABASE_URL from the environment or a .config.env, and leaves it unset by default', () => {
    expect(readAppConfig({}, cwd, userHome).databaseUrl).toBeUndefined();
    writeFileSync(join(userHome, '.mac-stats', '.config.env'), 'DATABASE_URL=postgres://home/db\n');
    expect(readAppConfig({}, cwd, userHome).databaseUrl).toBe('postgres://home/db');
    expect(readAppConfig({ DATABASE_URL: 'postgres://env/db' }, cwd, userHome).databaseUrl).toBe(
      'postgres://env/db',
    );
  });

  it('reads SCHEDULER_LEASE_MS as the bot does: 1000 to 600000 ms, anything else one warning and the default', () => {
    expect(readAppConfig({}, cwd, userHome).schedulerLeaseMs).toBeUndefined();
    expect(readAppConfig({ SCHEDULER_LEASE_MS: '2500' }, cwd, userHome).schedulerLeaseMs).toBe(2500);
    const bad = readAppConfig({ SCHEDULER_LEASE_MS: '15s' }, cwd, userHome);
    expect(bad.schedulerLeaseMs).toBeUndefined();
    expect(bad.warnings).toEqual([
      'SCHEDULER_LEASE_MS="15s" is not a lease length: use a whole number of milliseconds from 1000 to 600000 (15000 is 15 s); the default is used.',
    ]);
  });

  it('treats an empty value as unset', () => {
    writeFileSync(join(cwd, '.config.env'), 'OLLAMA_MODEL=from-cwd\n');
    expect(readAppConfig({ OLLAMA_MODEL: '' }, cwd, userHome).ollamaModel).toBe('from-cwd');
  });
});

describe('normaliseHost', () => {
  it('adds http:// to a bare host:port, as Ollama accepts it', () => {
    expect(normaliseHost('127.0.0.1:11434')).toBe('http://127.0.0.1:11434');
    expect(normaliseHost('https://ollama.example/')).toBe('https://ollama.example');
  });
});
