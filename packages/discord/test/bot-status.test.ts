import { describe, expect, it } from 'vitest';
import { gatedTool, harnessPerTest } from './harness.js';

const start = harnessPerTest();

describe('createDiscordBot while working', () => {
  it('shows a status message while a tool runs, then replaces it with the answer', async () => {
    const fetch = gatedTool('FETCH_URL', 'The page says hello.');
    const h = await start({
      bot: { typingDelayMs: 0 },
      tools: [fetch.tool],
      ollama: {
        replies: [
          { toolCalls: [{ name: 'FETCH_URL', arguments: { argument: 'https://example.com/page' } }] },
          'The page says hello.',
        ],
      },
    });
    const question = h.discord.dispatchMessage({
      channelId: h.general,
      content: 'read the page',
      mentionsBot: true,
    });
    expect(await fetch.started).toBe('https://example.com/page');
    const status = await h.discord.waitFor(() => h.discord.sent.find((record) => record.type === 'create'), {
      what: 'the status message',
    });
    expect(status).toMatchObject({
      content: 'Fetching https://example.com/page…',
      replyTo: question.id,
      flags: 4 | 4096,
    });
    expect(h.discord.typing.length).toBeGreaterThan(0);
    fetch.release();
    await h.discord.waitFor(() => h.discord.sent.some((record) => record.type === 'delete'), {
      what: 'status removed',
    });
    expect(
      h.discord.sent.map(
        (record) => `${record.type}:${'content' in record ? record.content : record.messageId}`,
      ),
    ).toEqual([
      'create:Fetching https://example.com/page…',
      'create:The page says hello.',
      `delete:${status.messageId}`,
    ]);
    expect(h.replies(h.general)).toEqual(['The page says hello.']);
  });

  it('edits the one status message as the next tool starts', async () => {
    const fetch = gatedTool('FETCH_URL', 'fetched');
    const mcp = gatedTool('MCP', 'echoed');
    const h = await start({
      tools: [fetch.tool, mcp.tool],
      bot: { statusIntervalMs: 0 },
      ollama: {
        replies: [
          { toolCalls: [{ name: 'FETCH_URL', arguments: { argument: 'https://example.com/a' } }] },
          { toolCalls: [{ name: 'MCP', arguments: { argument: 'echo {"message":"hi"}' } }] },
          'Both done.',
        ],
      },
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'do both', mentionsBot: true });
    await fetch.started;
    await h.discord.waitFor(() => h.discord.sent.length === 1);
    fetch.release();
    await mcp.started;
    await h.discord.waitFor(
      () => h.discord.sent.some((record) => record.type === 'edit' && record.content.startsWith('Calling')),
      { what: 'the status edit' },
    );
    mcp.release();
    await h.discord.waitFor(() => h.discord.sent.some((record) => record.type === 'delete'));
    const records = h.discord.sent.map(
      (record) => `${record.type}:${'content' in record ? record.content : ''}`,
    );
    // Between the tools the model is called again: "Thinking…" over the status already up.
    expect(records.slice(0, 3)).toEqual([
      'create:Fetching https://example.com/a…',
      'edit:Thinking…',
      'edit:Calling MCP tool echo…',
    ]);
    expect(records.filter((record) => record !== 'edit:Thinking…').slice(2)).toEqual([
      'create:Both done.',
      'delete:',
    ]);
  });

  it('posts no status message when no tool runs', async () => {
    const h = await start();
    h.discord.dispatchMessage({ channelId: h.general, content: 'quick one', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    expect(h.discord.sent.map((record) => record.type)).toEqual(['create']);
  });
});
