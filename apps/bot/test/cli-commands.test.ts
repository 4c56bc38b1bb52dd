import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EXCLUSIVE_TOOL_NAMES, TOOL_NAMES } from '@macstats/app-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, everythingStdio, runCli, tempHome } from './helpers.js';

afterEach(cleanUp);

describe('macstats --help and usage', () => {
  it('prints help with the exit codes for the program and each command, exiting 0', async () => {
    const home = await tempHome();
    for (const args of [
      ['--help'],
      ['start', '--help'],
      ['ask', '--help'],
      ['doctor', '--help'],
      ['tools', '--help'],
      ['schedules', '--help'],
      ['database', 'import', '--help'],
      ['task', 'add', '--help'],
      ['task', 'show', '--help'],
    ]) {
      const { code, stdout } = await runCli(args, home);
      expect(code, args.join(' ')).toBe(0);
      expect(stdout, args.join(' ')).toContain('Exit codes:');
    }
  });

  it('exits 2 on an unknown command, a missing argument and a bad option value', async () => {
    const home = await tempHome();
    for (const args of [['launch'], ['ask'], ['schedules', '--count', 'many'], []]) {
      const { code, stderr } = await runCli(args, home);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr.length, args.join(' ')).toBeGreaterThan(0);
    }
  });
});

describe('macstats tools', () => {
  it('lists the tools offered and says why each other one is left out', async () => {
    const home = await tempHome();
    const { code, stdout } = await runCli(['tools'], home, { ALLOW_LOCAL_CMD: 'off' });
    expect(code).toBe(0);
    const [offered, leftOut] = stdout.split('Left out:');
    for (const name of ['FETCH_URL:', 'METRICS:', 'SCHEDULER:']) expect(offered).toContain(name);
    for (const name of ['RUN_CMD:', 'BRAVE_SEARCH:', 'MCP:']) expect(offered).not.toContain(name);
    expect(leftOut).toContain('BRAVE_SEARCH: no BRAVE_API_KEY');
    expect(leftOut).toContain('RUN_CMD: ALLOW_LOCAL_CMD is off');
    expect(leftOut).toContain('MCP: no MCP server configured');
    expect(leftOut).toContain('RUN_JS: JavaScript runs only in the desktop page');
    expect(leftOut).toContain('JavaScript execution is not available in this context.');
  });

  it('starts every tool description in the same column, even after a long usage', async () => {
    const home = await tempHome();
    const { stdout } = await runCli(['tools'], home, { ALLOW_LOCAL_CMD: 'off' });
    const offered = stdout.split('Left out:')[0] ?? '';
    const descriptions = ['Fetch a web page', "This computer's live CPU", 'Schedules a task'];
    const columns = descriptions.map((text) => {
      const line = offered.split('\n').find((candidate) => candidate.includes(text)) ?? '';
      return line.indexOf(text);
    });
    expect(columns[0]).toBeGreaterThan(2);
    expect(columns).toEqual([columns[0], columns[0], columns[0]]);
  });

  it('offers BRAVE_SEARCH with a key, RUN_CMD by default and MCP with the tools its server lists', async () => {
    const home = await tempHome();
    const { code, stdout } = await runCli(['tools'], home, {
      BRAVE_API_KEY: 'test-key-1234',
      MCP_SERVER_STDIO: everythingStdio(),
    });
    expect(code).toBe(0);
    const [offered = '', leftOut] = stdout.split('Left out:');
    for (const name of ['BRAVE_SEARCH:', 'RUN_CMD:', 'MCP:']) expect(offered).toContain(name);
    expect(offered).toContain('- echo');
    expect(leftOut).not.toMatch(/BRAVE_SEARCH|RUN_CMD|MCP/);
    // With every setting on, the tools offered are the catalog's, less the search tool a
    // SEARXNG_URL would pick instead (one search tool at a time) and RUN_JS (the page's).
    const names = [...offered.matchAll(/^ {2}([A-Z_]+):/gm)].map((match) => match[1]);
    expect(names.sort()).toEqual(
      TOOL_NAMES.filter((name) => name !== EXCLUSIVE_TOOL_NAMES[1] && name !== 'RUN_JS').sort(),
    );
  });

  it('offers one search tool: WEB_SEARCH with SEARXNG_URL, even with a Brave key', async () => {
    const home = await tempHome();
    const { code, stdout } = await runCli(['tools'], home, {
      BRAVE_API_KEY: 'test-key-1234',
      SEARXNG_URL: 'http://127.0.0.1:9',
    });
    expect(code).toBe(0);
    const [offered = '', leftOut = ''] = stdout.split('Left out:');
    expect(offered).toContain('WEB_SEARCH:');
    expect(offered).not.toContain('BRAVE_SEARCH:');
    expect(leftOut).toContain('BRAVE_SEARCH');
    expect(leftOut).toContain('SEARXNG_URL is set: WEB_SEARCH searches instead');
  });

  it('leaves BROWSER out when ALLOW_BROWSER is off', async () => {
    const home = await tempHome();
    const { stdout } = await runCli(['tools'], home, { ALLOW_BROWSER: 'off' });
    const [offered = '', leftOut = ''] = stdout.split('Left out:');
    expect(offered).not.toContain('BROWSER:');
    expect(leftOut).toContain('ALLOW_BROWSER is off');
  });

  it('offers MCP while its server is down, telling the model so, with a note', async () => {
    const home = await tempHome();
    const { code, stdout } = await runCli(['tools'], home, {
      MCP_SERVER_STDIO: 'macstats-no-such-program',
    });
    expect(code).toBe(0);
    const [offered, leftOut] = stdout.split('Left out:');
    expect(offered).toContain('MCP:');
    expect(offered).toContain(
      'No MCP tools are available right now (no MCP server is reachable); do not use MCP.',
    );
    expect(leftOut).toContain(
      'note: MCP server "default" could not be used (the program macstats-no-such-program was not found); its tools are offered once it answers.',
    );
  });

  it('reads its settings from .config.env in MACSTATS_HOME', async () => {
    const home = await tempHome();
    await writeFile(join(home, '.config.env'), 'BRAVE_API_KEY=from-the-file-1234\nALLOW_LOCAL_CMD=0\n');
    const { stdout } = await runCli(['tools'], home);
    const [offered] = stdout.split('Left out:');
    expect(offered).toContain('BRAVE_SEARCH:');
    expect(offered).not.toContain('RUN_CMD:');
  });
});

describe('macstats schedules', () => {
  it('lists each schedule with its next run times', async () => {
    const home = await tempHome();
    const schedules = {
      schedules: [
        { id: 'weekday-news', cron: '0 9 * * 1-5', task: 'Summarise the news', timezone: 'Europe/Berlin' },
        { id: 'far-away', at: '2099-01-01T08:00', task: 'Happy new year', timezone: 'UTC' },
      ],
    };
    await writeFile(join(home, 'schedules.json'), JSON.stringify(schedules));
    const { code, stdout } = await runCli(['schedules', '--count', '2'], home);
    expect(code).toBe(0);
    expect(stdout).toContain('weekday-news: cron "0 9 * * 1-5" in Europe/Berlin — Summarise the news');
    expect(stdout.match(/ 09:00 \(\+0[12]:00 (Mon|Tue|Wed|Thu|Fri)\)/g)).toHaveLength(2);
    expect(stdout).toContain('far-away: at 2099-01-01T08:00 in UTC — Happy new year');
    expect(stdout).toContain('2099-01-01 08:00 (+00:00 Thu)  2099-01-01T08:00:00.000Z');
  });

  it('exits 3 and names the problem when schedules.json is invalid', async () => {
    const home = await tempHome();
    await writeFile(join(home, 'schedules.json'), '{"schedules": [{"id": "x", "task": "no time"}]}');
    const { code, stderr } = await runCli(['schedules'], home);
    expect(code).toBe(3);
    expect(stderr).toMatch(/needs "cron" \(recurring\) or "at" \(one-shot\)/);
    expect(stderr).toContain(`error in ${join(home, 'schedules.json')}: `);
  });

  it('says so when there is no schedules.json', async () => {
    const home = await tempHome();
    const { code, stdout } = await runCli(['schedules'], home);
    expect(code).toBe(0);
    expect(stdout).toContain('does not exist');
  });
});
