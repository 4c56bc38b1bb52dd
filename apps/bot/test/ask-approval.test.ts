import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeChatRequest, type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';
import { killPtys, startCliInPty } from './pty.js';

let ollama: FakeOllama | undefined;
let page: Server | undefined;
afterEach(async () => {
  killPtys();
  await cleanUp();
  await ollama?.close();
  await new Promise((resolve) => (page ? page.close(resolve) : resolve(undefined)));
  ollama = undefined;
  page = undefined;
});

const PAGE_TEXT = 'Hello from the page. The meeting is at 10.';

/**
 * A page on loopback and a model that reads it with FETCH_URL, then saves what it said with
 * MEMORY (a call that persists state after outside content was read: it needs approval), then
 * answers with what the last tool told it.
 */
async function startPageAndModel(): Promise<Record<string, string>> {
  page = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' }).end(PAGE_TEXT);
  });
  await new Promise<void>((resolve) => page?.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/agenda`;
  ollama = await startFakeOllama({
    reply: (request: FakeChatRequest) => {
      const last = request.messages.at(-1)?.content ?? '';
      if (last.includes(PAGE_TEXT)) return 'MEMORY: add The meeting is at 10.';
      if (request.messages.some((message) => message.content.includes(PAGE_TEXT)))
        return `Last tool said: ${last.replace(/\s+/g, ' ')}`;
      return `FETCH_URL: ${url}`;
    },
  });
  return { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'gemma2:2b', FETCH_ALLOW_HOSTS: '127.0.0.1' };
}

/** `macstats ask` on a pseudo-terminal: standard input, output and error are the terminal. */
async function askOnTerminal(question: string, env: Record<string, string>) {
  const home = await tempHome();
  // A conversation, so MEMORY has one to keep the note in.
  return startCliInPty(['ask', '-c', 'agenda', question], home, { HOME: home, MACSTATS_HOME: home, ...env });
}

describe('macstats ask approvals', () => {
  it('asks y/N on a terminal and runs the call on y', async () => {
    const ask = await askOnTerminal('Read the agenda and remember the time', await startPageAndModel());
    await ask.waitFor(/Allow it\? \[y\/c\/N\] \(y once, c this conversation; denied in \d+ s\)/);
    expect(ask.screen()).toMatch(/\? MEMORY needs your approval: add The meeting is at 10\r?\n/);
    expect(ask.screen()).toMatch(/MEMORY would .* outside content/);
    ask.type('y\r');
    expect(await ask.exited).toBe(0);
    expect(ask.screen()).toContain('✓ Approved: MEMORY runs.');
    expect(ask.screen()).toMatch(/Last tool said: .*Saved note 1 in this conversation\./);
    expect(ask.screen()).not.toContain('Not run');
  });

  it.each([
    ['Enter alone', '\r'],
    ['N', 'N\r'],
  ])('denies on %s, and the model is told', async (_name, keys) => {
    const ask = await askOnTerminal('Read the agenda and remember the time', await startPageAndModel());
    await ask.waitFor(/Allow it\? \[y\/c\/N\] \(y once, c this conversation; denied in \d+ s\)/);
    ask.type(keys);
    expect(await ask.exited).toBe(0);
    expect(ask.screen()).toContain('✗ Denied: MEMORY not run.');
    expect(ask.screen()).toMatch(/Last tool said: Not run: MEMORY would .* The user did not approve it\./);
  });

  it('approves for this conversation on c, and says what it covers', async () => {
    const ask = await askOnTerminal('Read the agenda and remember the time', await startPageAndModel());
    await ask.waitFor(/Allow it\? \[y\/c\/N\]/);
    // A persisting call is never offered Always: what it stores, the model chose after reading the page.
    expect(ask.screen()).not.toMatch(/a always/);
    ask.type('c\r');
    expect(await ask.exited).toBe(0);
    expect(ask.screen()).toContain(
      '✓ Approved: MEMORY runs. MEMORY may change saved state (add) for the rest of this conversation.',
    );
    expect(ask.screen()).toMatch(/Last tool said: .*Saved note 1 in this conversation\./);
  });

  it('keeps a "this conversation" answer for the next macstats ask in that conversation, and lists it', async () => {
    const env = await startPageAndModel();
    const home = await tempHome();
    const terminal = (conversation: string) =>
      startCliInPty(['ask', '-c', conversation, 'Read the agenda and remember the time'], home, {
        HOME: home,
        MACSTATS_HOME: home,
        ...env,
      });
    const first = terminal('agenda');
    await first.waitFor(/Allow it\? \[y\/c\/N\]/);
    first.type('c\r');
    expect(await first.exited).toBe(0);
    // A new process, the same conversation: the answer holds, nothing is asked.
    const second = terminal('agenda');
    expect(await second.exited).toBe(0);
    expect(second.screen()).not.toContain('needs your approval');
    expect(second.screen()).toMatch(/Last tool said: .*Saved note 2 in this conversation\./);
    // Another conversation asks.
    const other = terminal('elsewhere');
    await other.waitFor(/Allow it\? \[y\/c\/N\]/);
    other.type('\r');
    expect(await other.exited).toBe(0);
    const listed = await runCli(['approvals'], home, env);
    expect(listed.stdout).toMatch(
      /MEMORY may change saved state \(add\) in conversation agenda until \d{4}-/,
    );
  });

  it('lists the question as a card that another process answers, ending the prompt', async () => {
    const env = await startPageAndModel();
    const home = await tempHome();
    const ask = startCliInPty(['ask', '-c', 'agenda', 'Read the agenda and remember the time'], home, {
      HOME: home,
      MACSTATS_HOME: home,
      ...env,
    });
    await ask.waitFor(/Allow it\? \[y\/c\/N\]/);
    const id = /\(card (\S+): `macstats approvals`/.exec(ask.screen())?.[1] ?? '';
    const listed = await runCli(['approvals'], home, env);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toMatch(/terminal/);
    const answered = await runCli(['approvals', 'answer', id, 'once'], home, env);
    expect(answered.code, answered.stderr).toBe(0);
    expect(await ask.exited).toBe(0);
    expect(ask.screen()).toContain('✓ Approved elsewhere: MEMORY runs.');
    expect(ask.screen()).toMatch(/Last tool said: .*Saved note 1 in this conversation\./);
    // Answered once: a second answer is told so, and nothing runs twice.
    const again = await runCli(['approvals', 'answer', id, 'deny'], home, env);
    expect(again.code).toBe(3);
  });

  it('stops the answer on Ctrl-C at the prompt, exiting 130', async () => {
    const ask = await askOnTerminal('Read the agenda and remember the time', await startPageAndModel());
    await ask.waitFor(/Allow it\? \[y\/c\/N\] \(y once, c this conversation; denied in \d+ s\)/);
    ask.type('\x03');
    expect(await ask.exited).toBe(130);
    expect(ask.screen()).toContain('✗ Stopped: MEMORY not run.');
  });

  it('refuses without asking when standard input is not a terminal', async () => {
    const env = await startPageAndModel();
    const { code, stdout, stderr } = await runCli(
      ['ask', '-c', 'agenda', 'Read the agenda and remember the time'],
      await tempHome(),
      env,
    );
    expect(code).toBe(0);
    expect(stderr).not.toContain('Allow it?');
    expect(stderr).toMatch(/← MEMORY skipped \(contained\) in 0 ms: Not run: MEMORY would/);
    expect(stdout).toMatch(/Last tool said: Not run: MEMORY would .* Nobody can approve it here\./);
  });
});
