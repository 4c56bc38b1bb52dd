import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import type { ConversationSummary } from '../src/shared/chat-types.js';
import { fakeModel } from './fake-model.js';
import { createApiClient, rawRequest } from './http-client.js';

let fake: FakeOllama;
let home: string;
let folder: string;
let dashboard: Dashboard;
let api: ReturnType<typeof createApiClient>;

beforeAll(async () => {
  fake = await startFakeOllama({ reply: fakeModel });
  home = mkdtempSync(join(tmpdir(), 'macstats-conversations-'));
  folder = join(home, 'desktop', 'conversations');
  mkdirSync(folder, { recursive: true });
  // Not started: these tests read no live metrics.
  dashboard = await startDashboard({ home, ollama: { host: fake.url }, collector: createMetricsCollector() });
  api = createApiClient(dashboard.port, dashboard.token);
});
afterAll(async () => {
  await dashboard.close();
  await fake.close();
  rmSync(home, { recursive: true, force: true });
});

/** A saved conversation as an older dashboard wrote it; `at` is the last turn's end, if any. */
function saveFile(id: string, question: string, at?: number): void {
  const turn = { id: `${id}-t`, question, status: 'done', draft: '', tools: [], answer: 'ok' };
  const timed = at === undefined ? turn : { ...turn, askedAt: at - 1000, finishedAt: at };
  writeFileSync(join(folder, `${id}.json`), JSON.stringify({ id, turns: [timed] }));
}

async function listed(): Promise<ConversationSummary[]> {
  const { status, json } = await api('GET', '/api/conversations');
  expect(status).toBe(200);
  return json.conversations;
}

async function waitUntilDone(conversationId: string): Promise<void> {
  for (;;) {
    const { json } = await api('GET', `/api/conversations/${conversationId}`);
    if (json.turns.length > 0 && json.turns.every((turn: { status: string }) => turn.status !== 'running'))
      return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the list of conversations', () => {
  it('lists saved conversations newest first, those without times last', async () => {
    saveFile('older', 'An older question', Date.UTC(2025, 0, 1));
    saveFile('untimed', 'A question from before turns had times');
    saveFile('newer', 'A newer question', Date.UTC(2025, 5, 1));
    const ids = (await listed()).map((item) => item.id);
    expect(ids.filter((id) => ['older', 'untimed', 'newer'].includes(id))).toEqual([
      'newer',
      'older',
      'untimed',
    ]);
    expect(ids.at(-1)).toBe('untimed');
  });

  it('gives each its title, number of turns, last time and whether it runs', async () => {
    const newer = (await listed()).find((item) => item.id === 'newer');
    expect(newer).toEqual({
      id: 'newer',
      title: 'A newer question',
      turns: 1,
      updatedAt: Date.UTC(2025, 5, 1),
      running: false,
    });
  });

  it('titles a conversation with its first question on one line, cut to 80 characters', async () => {
    saveFile('long', `Line one\nline two ${'x'.repeat(200)}`, Date.UTC(2025, 1, 1));
    const title = (await listed()).find((item) => item.id === 'long')?.title ?? '';
    expect(title.startsWith('Line one line two xxx')).toBe(true);
    expect(title).toHaveLength(80);
    expect(title.endsWith('…')).toBe(true);
  });

  it('skips a broken file without failing, and keeps it', async () => {
    writeFileSync(join(folder, 'broken.json'), '{"turns": [ oops');
    writeFileSync(join(folder, 'readme.txt'), 'not a conversation');
    const ids = (await listed()).map((item) => item.id);
    expect(ids).toContain('newer');
    expect(ids).not.toContain('broken');
    expect(readFileSync(join(folder, 'broken.json'), 'utf8')).toBe('{"turns": [ oops');
  });

  it('shows a conversation asked through the chat, running while it is answered', async () => {
    await api('POST', '/api/chat', { conversationId: 'live', clientId: 'c', message: 'answer slowly' });
    const live = (await listed()).find((item) => item.id === 'live');
    expect(live).toMatchObject({ title: 'answer slowly', turns: 1, running: true });
    expect(live?.updatedAt).toBeGreaterThan(Date.UTC(2025, 5, 1));
    expect((await listed())[0]?.id).toBe('live');
  });
});

describe('deleting a conversation', () => {
  it('is refused with 409 while its answer runs, and the file stays', async () => {
    const { status, json } = await api('DELETE', '/api/conversations/live');
    expect(status).toBe(409);
    expect(json.error).toBe('The agent is still answering in this conversation: stop it first.');
    expect(existsSync(join(folder, 'live.json'))).toBe(true);
  });

  it('removes the file once the answer stopped, and the list no longer has it', async () => {
    await api('POST', '/api/chat/stop', { conversationId: 'live' });
    await waitUntilDone('live');
    const { status, json } = await api('DELETE', '/api/conversations/live');
    expect(status).toBe(200);
    expect(json).toEqual({ deleted: 'live' });
    expect(existsSync(join(folder, 'live.json'))).toBe(false);
    expect((await listed()).map((item) => item.id)).not.toContain('live');
    expect((await api('GET', '/api/conversations/live')).json).toEqual({ id: 'live', turns: [] });
  });

  it('answers 404 for an id that was never saved', async () => {
    const { status, json } = await api('DELETE', '/api/conversations/never-saved');
    expect(status).toBe(404);
    expect(json.error).toBe('There is no saved conversation with that id.');
  });

  it('refuses ids that are not plain identifiers, touching no file', async () => {
    writeFileSync(join(home, 'keep.json'), '{}');
    for (const path of [
      '/api/conversations/..%2Fkeep',
      '/api/conversations/%2E%2E',
      '/api/conversations/..%2F..%2Fdesktop%2Fconversations%2Folder',
      '/api/conversations/older.json',
      '/api/conversations/older%00',
      `/api/conversations/${'a'.repeat(65)}`,
    ]) {
      const { status } = await api('DELETE', path);
      expect([400, 404]).toContain(status);
    }
    expect(existsSync(join(home, 'keep.json'))).toBe(true);
    expect(existsSync(join(folder, 'older.json'))).toBe(true);
  });

  it('needs the dashboard page as Origin, like every other write', async () => {
    const cookie = `macstats_${dashboard.port}=${dashboard.token}`;
    const foreign = `http://127.0.0.1:${dashboard.port + 1}`;
    for (const headers of [{ cookie }, { cookie, origin: foreign }, { cookie, origin: 'null' }]) {
      const response = await rawRequest(dashboard.port, {
        method: 'DELETE',
        path: '/api/conversations/older',
        headers,
      });
      expect(response.status).toBe(403);
    }
    expect(existsSync(join(folder, 'older.json'))).toBe(true);
  });

  it('is refused without the token, and the list is not readable from another site', async () => {
    const origin = `http://127.0.0.1:${dashboard.port}`;
    const withoutToken = await rawRequest(dashboard.port, {
      method: 'DELETE',
      path: '/api/conversations/older',
      headers: { origin },
    });
    expect(withoutToken.status).toBe(401);
    const cookie = `macstats_${dashboard.port}=${dashboard.token}`;
    const crossSite = await rawRequest(dashboard.port, {
      path: '/api/conversations',
      headers: { cookie, 'sec-fetch-site': 'same-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(existsSync(join(folder, 'older.json'))).toBe(true);
  });

  it("forgets the agent's memory of the conversation too", async () => {
    await api('POST', '/api/chat', { conversationId: 'remembered', clientId: 'c', message: 'hello?' });
    await waitUntilDone('remembered');
    const sessions = join(home, 'sessions');
    const memoryFiles = () =>
      (existsSync(sessions) ? readdirSync(sessions) : []).filter(
        (name) =>
          name.startsWith('conversation-') &&
          readFileSync(join(sessions, name), 'utf8').includes('"id":"remembered"'),
      );
    // Its messages are archived beside the record (sessions/archive/), and go with it.
    const archived = () => {
      const archive = join(sessions, 'archive');
      return (existsSync(archive) ? readdirSync(archive) : []).filter((name) =>
        readFileSync(join(archive, name), 'utf8').includes('"text":"hello?"'),
      );
    };
    while (memoryFiles().length === 0 || archived().length === 0)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await api('DELETE', '/api/conversations/remembered')).status).toBe(200);
    expect(memoryFiles()).toEqual([]);
    expect(archived()).toEqual([]);
  });

  it('removes an untimed file from an older dashboard too', async () => {
    expect((await api('DELETE', '/api/conversations/untimed')).status).toBe(200);
    expect((await listed()).map((item) => item.id)).not.toContain('untimed');
  });
});
