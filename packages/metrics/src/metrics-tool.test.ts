import { describe, expect, it } from 'vitest';
import { makeSnapshot } from '../test/support/snapshot.js';
import { createMetricsTool } from './metrics-tool.js';
import type { MetricsSnapshot } from './snapshot-types.js';

const context = { signal: new AbortController().signal };

async function reply(argument: string, snapshot: MetricsSnapshot | null = makeSnapshot()) {
  return createMetricsTool({ latest: () => snapshot }).run(argument, context);
}

describe('the METRICS tool', () => {
  it('is named METRICS and shows its sections in its usage line', () => {
    const tool = createMetricsTool({ latest: () => null });
    expect(tool.name).toBe('METRICS');
    expect(tool.usage).toBe('METRICS: cpu | memory | disk | network | processes | all');
  });

  it('answers cpu with use, per-core use, load, clock and temperature', async () => {
    expect(await reply('cpu')).toBe(
      'CPU 12% (per core 10% 15%); load 0.42 0.30 0.25\n2 cores, Test CPU, 2.30 GHz; temperature not reported (no sensor)',
    );
  });

  it('answers memory in one line with swap', async () => {
    expect(await reply('memory')).toBe('Memory 5.1 GiB of 23.4 GiB used (22%), 18.3 GiB available; no swap');
  });

  it('answers disk with usage and I/O per mount', async () => {
    expect(await reply('disk')).toBe(
      'Disk / (ext4): 22.0 GiB of 100.0 GiB used (22%), 78.0 GiB free; read 1.2 MB/s, write 40 kB/s',
    );
  });

  it('answers processes with the top lists and how old they are', async () => {
    expect(await reply('processes')).toBe(
      [
        'Top CPU: ollama (42) 180%, node (7) 3%',
        'Top memory: ollama (42) 4.0 GiB, node (7) 204.8 MiB',
        '120 processes, listed 4 s before this sample',
      ].join('\n'),
    );
  });

  it('answers all (and an empty argument) with every section in a few lines', async () => {
    const all = await reply('all');
    expect(await reply('  ')).toBe(all);
    expect(String(all).split('\n')).toHaveLength(9);
    expect(all).toContain('Up 2.0 hours (linux)');
  });

  it('accepts a section in any case', async () => {
    expect(await reply(' CPU ')).toBe(await reply('cpu'));
  });

  it('says which sections exist when asked for another', async () => {
    expect(await reply('gpu')).toEqual({
      isError: true,
      text: 'Unknown section "gpu": use one of cpu, memory, disk, network, processes, all.',
    });
  });

  it('says rates are not known yet instead of reporting zeros on a first sample', async () => {
    const snapshot = makeSnapshot();
    const first = { ...snapshot, cpu: { ...snapshot.cpu, usagePercent: null, perCorePercent: null } };
    expect(String(await reply('cpu', first)).startsWith('CPU use not reported yet; load')).toBe(true);
  });

  it('reports an error when nothing has been sampled', async () => {
    expect(await reply('cpu', null)).toMatchObject({ isError: true });
  });

  it('takes a sample itself when the collector has none yet', async () => {
    const tool = createMetricsTool({ latest: () => null, sample: async () => makeSnapshot() });
    expect(await tool.run('memory', context)).toContain('Memory 5.1 GiB');
  });

  it('throws when its signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      createMetricsTool({ latest: () => makeSnapshot() }).run('cpu', controller),
    ).rejects.toThrow();
  });

  it('declares a section enum and reads the structured form', async () => {
    const tool = createMetricsTool({ latest: () => makeSnapshot() });
    expect(tool.parameters).toMatchObject({
      properties: { section: { enum: expect.arrayContaining(['cpu', 'all']) } },
    });
    expect(await tool.run('{"section":"cpu"}', { ...context, arguments: { section: 'cpu' } })).toBe(
      await reply('cpu'),
    );
    expect(await tool.run('{}', { ...context, arguments: {} })).toBe(await reply('all'));
  });
});
