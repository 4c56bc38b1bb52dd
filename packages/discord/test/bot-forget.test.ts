import { createMessageArchive } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { type Harness, harnessPerTest } from './harness.js';

const start = harnessPerTest();

/** The real agent on an archive, and `/forget` on the same archive through the agent. */
async function startWithArchive(): Promise<Harness> {
  const archive = createMessageArchive();
  let h: Harness | undefined;
  h = await start({
    agentOptions: { memory: { archive } },
    bot: {
      remembered: {
        read: (id) => archive.read(id),
        forget: async (id, seq) => (await h?.agent.forgetMessage?.(id, seq)) ?? false,
      },
    },
  });
  return h;
}

describe('/forget', () => {
  it('is registered when the app keeps remembered messages', async () => {
    const h = await startWithArchive();
    await h.discord.waitFor(() => h.discord.commands().length > 0);
    expect(h.discord.commands().map((command) => command.name)).toContain('forget');
  });

  it('removes the remembered messages that contain the words, tells only the asker, and they are not recalled again', async () => {
    const h = await startWithArchive();
    await h.discord.waitFor(() => h.discord.commands().length > 0);
    h.discord.dispatchMessage({ channelId: h.general, content: 'my locker code is 4471', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    const forget = h.discord.dispatchInteraction({
      command: 'forget',
      channelId: h.general,
      options: { words: 'LOCKER code' },
    });
    await h.discord.waitFor(() => forget.responses.length === 1);
    expect(forget.responses[0]?.data.flags).toBe(64);
    expect(forget.responses[0]?.data.content).toBe(
      'Forgot 2 remembered messages: "my locker code is 4471", "Answer to: my locker code is 4471".',
    );
    h.discord.dispatchMessage({
      channelId: h.general,
      content: 'what is my locker code?',
      mentionsBot: true,
    });
    await h.discord.waitFor(() => h.ollama.requests.length === 2);
    expect(JSON.stringify(h.ollama.requests.at(-1)?.messages)).not.toContain('4471');
  });

  it('says so when nothing remembered contains the words', async () => {
    const h = await startWithArchive();
    await h.discord.waitFor(() => h.discord.commands().length > 0);
    const forget = h.discord.dispatchInteraction({
      command: 'forget',
      channelId: h.general,
      options: { words: 'nothing here' },
    });
    await h.discord.waitFor(() => forget.responses.length === 1);
    expect(forget.responses[0]?.data.content).toBe(
      'No remembered message of this channel contains "nothing here".',
    );
  });
});
