import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Agent, AnswerOptions } from '@macstats/core';
import type { FakeDiscord } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { answerOf, harnessPerTest } from './harness.js';

const start = harnessPerTest();

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const png = (filename: string) => ({ filename, contentType: 'image/png', data: PNG });

function recordingAgent() {
  const calls: Array<{ question: string; options: AnswerOptions | undefined }> = [];
  const agent: Pick<Agent, 'answer'> = {
    answer: async (question, options) => {
      calls.push({ question, options });
      return answerOf(`Seen ${options?.images?.length ?? 0} image(s).`);
    },
  };
  return { agent, calls };
}

/** Bot options: the fake's CDN allowed, a model that does or does not see, llava installed. */
const withVision =
  (vision: boolean, extra: object = {}) =>
  (discord: FakeDiscord) => ({
    imageOrigins: [discord.cdnOrigin],
    capabilities: async () => ({ vision }),
    visionModel: async () => 'llava:7b',
    ...extra,
  });

let other: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (other ? other.close(resolve) : resolve(undefined)));
  other = undefined;
});

describe('createDiscordBot images', () => {
  it('gives attached images to a vision model, up to maxImages', async () => {
    const { agent, calls } = recordingAgent();
    const h = await start({ agent, bot: withVision(true, { maxImages: 2 }) });
    h.discord.dispatchMessage({
      channelId: h.general,
      content: 'what are these?',
      mentionsBot: true,
      attachments: [png('a.png'), png('b.png'), png('c.png')],
    });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    expect(calls[0]?.options?.images).toEqual([PNG.toString('base64'), PNG.toString('base64')]);
    expect(h.replies(h.general)).toEqual(['Seen 2 image(s).']);
  });

  it('answers an image sent alone, and reads an image link from the allowed origin only', async () => {
    let otherHits = 0;
    other = createServer((_request, response) => {
      otherHits++;
      response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    });
    await new Promise<void>((resolve) => other?.listen(0, '127.0.0.1', resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/cat.png`;
    const { agent, calls } = recordingAgent();
    const h = await start({ agent, bot: withVision(true) });
    const posted = h.discord.dispatchMessage({
      channelId: h.general,
      content: 'x',
      attachments: [png('a.png')],
    });
    const link = posted.attachments?.[0]?.url ?? '';
    h.discord.dispatchMessage({ channelId: h.general, content: `${link} ${otherUrl}`, mentionsBot: true });
    h.discord.dispatchMessage({
      channelId: h.random,
      content: '',
      mentionsBot: true,
      attachments: [png('b.png')],
    });
    await h.discord.waitFor(() => calls.length === 2);
    const byQuestion = Object.fromEntries(
      calls.map((call) => [
        call.question.includes('127.0.0.1') ? 'links' : call.question,
        call.options?.images?.length,
      ]),
    );
    expect(byQuestion).toEqual({ links: 1, 'What is in this image?': 1 });
    expect(otherHits).toBe(0);
  });

  it('leaves out an image over maxImageBytes and still answers', async () => {
    const { agent, calls } = recordingAgent();
    const h = await start({ agent, bot: withVision(true, { maxImageBytes: 10 }) });
    h.discord.dispatchMessage({
      channelId: h.general,
      content: 'look',
      mentionsBot: true,
      attachments: [png('a.png')],
    });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    expect(calls[0]?.options?.images).toBeUndefined();
    expect(h.logs.some((entry) => entry.message === 'image over the size limit left out')).toBe(true);
  });

  it('says in one sentence that a text-only model cannot see, naming one that can', async () => {
    const { agent, calls } = recordingAgent();
    const h = await start({ agent, bot: withVision(false) });
    h.discord.dispatchMessage({
      channelId: h.general,
      content: '',
      mentionsBot: true,
      attachments: [png('a.png')],
    });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    expect(h.replies(h.general)).toEqual([
      "I can't see images with the current model; llava:7b can (someone with Manage Server can switch with /model).",
    ]);
    expect(calls).toEqual([]);
    h.discord.dispatchMessage({
      channelId: h.general,
      content: 'and this?',
      mentionsBot: true,
      attachments: [png('b.png')],
    });
    await h.discord.waitFor(() => h.replies(h.general).length === 2);
    expect(h.replies(h.general)[1]).toMatch(
      /^I can't see images with the current model; .*\n\nSeen 0 image\(s\)\.$/,
    );
  });

  it("sends the images to the model through core's agent", async () => {
    const h = await start({ bot: withVision(true) });
    h.discord.dispatchMessage({ dm: true, content: 'describe', attachments: [png('a.png')] });
    await h.discord.waitFor(() => h.ollama.requests.length === 1);
    const user = h.ollama.requests[0]?.messages.filter((message) => message.role === 'user').at(-1);
    expect(user?.images).toEqual([PNG.toString('base64')]);
  });
});
