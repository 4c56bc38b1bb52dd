import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARCHIVE_FOLDER, createMessageArchive } from '@macstats/core';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import type { ChatTurn } from '../src/shared/chat-types.js';
import { createApiClient } from './http-client.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let api: ReturnType<typeof createApiClient>;

beforeAll(async () => {
  fake = await startFakeOllama({ reply: () => 'Noted.' });
  home = mkdtempSync(join(tmpdir(), 'macstats-recalled-'));
  // Earlier messages, as `macstats memory import` leaves them in the home's archive.
  await createMessageArchive({ dir: join(home, 'sessions', ARCHIVE_FOLDER) }).append('chat-1', [
    { speaker: 'me', text: 'The spare key is under the blue pot.', at: Date.UTC(2026, 0, 2, 8, 0) },
    { speaker: 'me', text: 'The wifi password is on the fridge.', at: Date.UTC(2026, 0, 3, 8, 0) },
  ]);
  dashboard = await startDashboard({ home, ollama: { host: fake.url }, collector: createMetricsCollector() });
  api = createApiClient(dashboard.port, dashboard.token);
});
afterAll(async () => {
  await dashboard.close();
  await fake.close();
  rmSync(home, { recursive: true, force: true });
});

async function ask(question: string): Promise<ChatTurn> {
  const before = fake.requests.length;
  expect(
    (await api('POST', '/api/chat', { conversationId: 'chat-1', clientId: 'c', message: question })).status,
  ).toBe(202);
  for (;;) {
    const { json } = await api('GET', '/api/conversations/chat-1');
    const turn = (json.turns as ChatTurn[]).at(-1);
    if (turn && turn.question === question && turn.status !== 'running' && fake.requests.length > before)
      return turn;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('what an answer recalled, in the dashboard', () => {
  it('lists the recalled messages with the answer, and forgets one for good', async () => {
    const turn = await ask('Where is the spare key?');
    const key = turn.recalled?.find((line) => line.text === 'The spare key is under the blue pot.');
    expect(key).toMatchObject({ speaker: 'me', at: Date.UTC(2026, 0, 2, 8, 0) });
    const forgot = await api('DELETE', `/api/conversations/chat-1/remembered/${key?.seq}`);
    expect(forgot.status).toBe(200);
    const saved = (await api('GET', '/api/conversations/chat-1')).json.turns as ChatTurn[];
    expect(saved[0]?.recalled?.some((line) => line.seq === key?.seq)).toBe(false);
    await ask('Where is the spare key again?');
    expect(JSON.stringify(fake.requests.at(-1)?.messages)).not.toContain('under the blue pot');
    expect((await api('DELETE', `/api/conversations/chat-1/remembered/${key?.seq}`)).status).toBe(404);
  });
});
