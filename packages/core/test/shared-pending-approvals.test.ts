import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleScript } from '@macstats/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PendingApprovalEvent } from '../src/approvals/pending-approvals.js';
import {
  createSharedPendingApprovals,
  type SharedPendingApprovals,
} from '../src/approvals/shared-pending-approvals.js';
import type { ApprovalRequest } from '../src/types.js';

const fixture = fileURLToPath(new URL('./fixtures/approval-process.ts', import.meta.url));
let script: string;
let dir: string;
let here: SharedPendingApprovals;
let child: ChildProcess | undefined;
beforeAll(async () => {
  script = await bundleScript(fixture);
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shared-approvals-'));
  here = createSharedPendingApprovals({ dir });
});
afterEach(async () => {
  here.close();
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
  child = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** The other process: send it a line, wait for a line it prints that starts with `prefix`. */
function otherProcess() {
  const started = spawn(process.execPath, [script, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  child = started;
  const seen: string[] = [];
  const waiters: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  createInterface({ input: started.stdout! }).on('line', (line) => {
    seen.push(line);
    for (const waiter of waiters.filter((w) => line.startsWith(w.prefix))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  return {
    process: started,
    send: (line: string) => started.stdin!.write(`${line}\n`),
    line: (prefix: string) =>
      new Promise<string>((resolve) => {
        const found = seen.find((line) => line.startsWith(prefix));
        if (found) resolve(found);
        else waiters.push({ prefix, resolve });
      }),
  };
}

/** Resolves with the first event `here` reports that matches. */
function eventHere(match: (event: PendingApprovalEvent) => boolean): Promise<PendingApprovalEvent> {
  return new Promise((resolve) => {
    const stop = here.subscribe((event) => {
      if (!match(event)) return;
      stop();
      resolve(event);
    });
  });
}

function request(timeoutMs: number, signal = new AbortController().signal): ApprovalRequest {
  return {
    tool: 'MEMORY',
    argument: 'add a note',
    rule: 'persist',
    reason: 'It would change saved notes.',
    scope: { tool: 'MEMORY', rule: 'persist', target: 'add', remember: 'conversation' },
    signal,
    timeoutMs,
  };
}

describe('pending approvals shared by the processes of one data folder', () => {
  it('lists a card another process asked, with its expiry, and an answer here resolves its call there', async () => {
    const other = otherProcess();
    const opened = eventHere((event) => event.type === 'opened');
    other.send('open 600000');
    const id = (await other.line('opened ')).split(' ')[1]!;
    expect((await opened).approval.id).toBe(id);
    const [card] = here.list();
    expect(card).toMatchObject({ id, tool: 'FETCH_URL', rule: 'send', where: 'discord' });
    expect(card!.expiresAt.getTime() - card!.askedAt.getTime()).toBe(600_000);
    const ended = eventHere((event) => event.type === 'answered');
    expect(here.answer(id, 'always', 'the dashboard')).toBe('answered');
    expect(await other.line(`resolved ${id}`)).toBe(`resolved ${id} always`);
    expect(await other.line(`ended ${id}`)).toBe(`ended ${id} always the dashboard`);
    expect(await ended).toMatchObject({ outcome: 'always', by: 'the dashboard' });
    expect(here.list()).toEqual([]);
    expect(here.outcome(id)).toBe('always');
  });

  it('answers a card once: a second answer in either process is told so, and nothing resolves twice', async () => {
    const other = otherProcess();
    const { approval, answered } = here.open(request(600_000), 'the dashboard');
    other.send(`answer ${approval.id} once`);
    expect(await other.line(`result ${approval.id}`)).toBe(`result ${approval.id} answered`);
    expect(await answered).toBe('once');
    expect(here.answer(approval.id, 'deny')).toBe('already-answered');
    other.send(`answer ${approval.id} deny`);
    await other.line(`result ${approval.id} already-answered`);
    expect(here.outcome(approval.id)).toBe('once');
  });

  it('narrows an answer wider than the card allows, whichever process gives it', async () => {
    const other = otherProcess();
    const { approval, answered } = here.open(request(600_000), 'the dashboard');
    other.send(`answer ${approval.id} always`);
    expect(await answered).toBe('conversation');
  });

  it('tells every process a card expired, and cleans its file', async () => {
    const other = otherProcess();
    const ended = eventHere((event) => event.type === 'answered');
    other.send('open 300');
    const id = (await other.line('opened ')).split(' ')[1]!;
    expect(await other.line(`resolved ${id}`)).toBe(`resolved ${id} deny`);
    expect(await ended).toMatchObject({ approval: { id }, outcome: 'expired' });
    expect(await readdir(join(dir, 'pending'))).toEqual([]);
    expect(here.answer(id, 'once')).toBe('already-answered');
  });

  it('closes as expired a card whose process died, when another process reads the folder', async () => {
    const other = otherProcess();
    other.send('open 600000');
    const id = (await other.line('opened ')).split(' ')[1]!;
    other.process.kill('SIGKILL');
    await once(other.process, 'exit');
    expect(here.list()).toEqual([]);
    expect(here.outcome(id)).toBe('expired');
    expect(here.answer(id, 'once')).toBe('already-answered');
  });

  it('keeps its folders 0700 and its files 0600, and knows no id that is not one', async () => {
    const { approval } = here.open(request(600_000), 'the dashboard');
    expect((await stat(join(dir, 'pending'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'pending', `${approval.id}.json`))).mode & 0o777).toBe(0o600);
    here.answer(approval.id, 'deny');
    expect((await stat(join(dir, 'answers', `${approval.id}.json`))).mode & 0o777).toBe(0o600);
    expect(here.answer('../../etc/passwd', 'once')).toBe('unknown');
    expect(here.answer('anone', 'once')).toBe('unknown');
  });
});
