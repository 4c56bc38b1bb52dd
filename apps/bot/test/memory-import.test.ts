import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, cleanUp, runCli, tempHome } from './helpers.js';

let ollama: FakeOllama | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  ollama = undefined;
});

const lines = (...messages: object[]) => messages.map((message) => `${JSON.stringify(message)}\n`).join('');

/** `macstats memory import - -c <id>` with `input` on standard input. */
function importFromStdin(home: string, conversation: string, input: string) {
  const child = spawn(process.execPath, [CLI, 'memory', 'import', '-', '-c', conversation], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, MACSTATS_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stdin.end(input);
  return new Promise<{ code: number | null; stdout: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stdout })),
  );
}

describe('macstats memory import and export', () => {
  it('imports messages, appends a second import, and exports them in the same format', async () => {
    const home = await tempHome();
    const file = join(home, 'chat.jsonl');
    await writeFile(
      file,
      lines(
        { speaker: 'Caroline', text: 'I went to a support group yesterday.', at: '2023-05-08T13:56:00Z' },
        { speaker: 'Melanie', text: '  That sounds  powerful.  ', at: '2023-05-08T13:57:00Z' },
      ),
    );
    const first = await runCli(['memory', 'import', file, '-c', 'friends'], home);
    expect(first).toMatchObject({ code: 0, stdout: 'Imported 2 messages into conversation friends.\n' });
    const second = await importFromStdin(
      home,
      'friends',
      lines({ speaker: 'Caroline', text: 'Adoption agencies next.', at: '2023-05-25T10:00:00Z' }),
    );
    expect(second).toEqual({ code: 0, stdout: 'Imported 1 message into conversation friends.\n' });
    const exported = await runCli(['memory', 'export', '-c', 'friends'], home);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toBe(
      lines(
        { speaker: 'Caroline', text: 'I went to a support group yesterday.', at: '2023-05-08T13:56:00.000Z' },
        { speaker: 'Melanie', text: '  That sounds  powerful.  ', at: '2023-05-08T13:57:00.000Z' },
        { speaker: 'Caroline', text: 'Adoption agencies next.', at: '2023-05-25T10:00:00.000Z' },
      ),
    );
  });

  it('refuses a file with a bad line in one sentence naming the line, and imports nothing', async () => {
    const home = await tempHome();
    const file = join(home, 'chat.jsonl');
    await writeFile(file, `${lines({ speaker: 'a', text: 'fine' })}\n{"speaker": "b"}\n`);
    const refused = await runCli(['memory', 'import', file, '-c', 'c'], home);
    expect(refused.code).toBe(3);
    expect(refused.stderr.trim()).toBe(`Cannot import ${file}: line 3 has no "text". Nothing was imported.`);
    expect((await runCli(['memory', 'export', '-c', 'c'], home)).stdout).toBe('');
  });

  it('puts the imported messages relevant to the question in the request of ask -c', async () => {
    ollama = await startFakeOllama({ replies: ['On 7 May.'] });
    const home = await tempHome();
    const file = join(home, 'chat.jsonl');
    await writeFile(
      file,
      lines(
        { speaker: 'Caroline', text: 'I went to a support group yesterday.', at: '2023-05-08T13:56:00Z' },
        { speaker: 'Melanie', text: 'I painted a lake last week.', at: '2023-05-20T10:00:00Z' },
      ),
    );
    await runCli(['memory', 'import', file, '-c', 'friends'], home);
    const asked = await runCli(['ask', '-c', 'friends', 'When did Caroline go to the support group?'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
    });
    expect(asked.code).toBe(0);
    const context = ollama.requests[0]?.messages[1]?.content ?? '';
    expect(context).toContain('- [2023-05-08 13:56 UTC] Caroline: I went to a support group yesterday.');
    expect(context).not.toContain('painted');
  });
});
