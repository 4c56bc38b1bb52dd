import { afterEach, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../src/index.js';

let fake: FakeDiscord | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const OGG = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 1, 2, 3]);
const WAVEFORM = Buffer.alloc(64, 7).toString('base64');

/** Posts a message with files as discord.js does: multipart, `payload_json` and `files[n]`. */
async function upload(
  channelId: string,
  payload: Record<string, unknown>,
  files: Array<{ name: string; type: string; data: Uint8Array }>,
) {
  const form = new FormData();
  form.set('payload_json', JSON.stringify(payload));
  for (const [index, file] of files.entries())
    form.set(`files[${index}]`, new Blob([file.data], { type: file.type }), file.name);
  const response = await fetch(`${fake?.apiUrl}/v10/channels/${channelId}/messages`, {
    method: 'POST',
    headers: { authorization: 'Bot secret' },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const voicePayload = (extra: Record<string, unknown> = {}) => ({
  flags: 1 << 13,
  attachments: [{ id: 0, filename: 'voice-message.ogg', duration_secs: 2.5, waveform: WAVEFORM }],
  ...extra,
});

describe('fake Discord voice messages', () => {
  it('serves a dispatched voice message at a signed link and refuses the link without its query', async () => {
    fake = await startFakeDiscord();
    const message = fake.dispatchMessage({
      content: '',
      dm: true,
      attachments: [
        {
          filename: 'voice-message.ogg',
          contentType: 'audio/ogg',
          data: OGG,
          durationSecs: 2.5,
          waveform: WAVEFORM,
        },
      ],
    });
    expect(message.flags).toBe(1 << 13);
    const url = message.attachments?.[0]?.url ?? '';
    expect(new URL(url).searchParams.get('hm')).toMatch(/^[0-9a-f]{64}$/);
    const signed = await fetch(url);
    expect(signed.status).toBe(200);
    expect(new Uint8Array(await signed.arrayBuffer())).toEqual(OGG);
    const bare = await fetch(url.split('?')[0] ?? '');
    expect(bare.status).toBe(404);
    expect(await bare.text()).toBe('This content is no longer available.');
  });

  it('takes a voice message upload and records its flag, duration, waveform and file', async () => {
    fake = await startFakeDiscord();
    const channelId = fake.guilds[0]?.channels[0]?.id ?? '';
    const { status, body } = await upload(channelId, voicePayload(), [
      { name: 'voice-message.ogg', type: 'audio/ogg', data: OGG },
    ]);
    expect(status).toBe(200);
    expect(body.flags).toBe(1 << 13);
    const record = fake.sent.find((entry) => entry.type === 'create');
    const attachment = record?.type === 'create' ? record.attachments?.[0] : undefined;
    expect(attachment).toMatchObject({ durationSecs: 2.5, waveform: WAVEFORM, contentType: 'audio/ogg' });
    expect(new Uint8Array(await (await fetch(attachment?.url ?? '')).arrayBuffer())).toEqual(OGG);
  });

  it('refuses a voice message with content, without one audio file, or without its metadata', async () => {
    fake = await startFakeDiscord();
    const channelId = fake.guilds[0]?.channels[0]?.id ?? '';
    const ogg = { name: 'voice-message.ogg', type: 'audio/ogg', data: OGG };
    expect((await upload(channelId, voicePayload({ content: 'hi' }), [ogg])).body.code).toBe(50159);
    const text = { name: 'a.txt', type: 'text/plain', data: OGG };
    expect((await upload(channelId, voicePayload(), [text])).body.code).toBe(50160);
    const bare = voicePayload({ attachments: [{ id: 0, filename: 'voice-message.ogg' }] });
    expect((await upload(channelId, bare, [ogg])).body.code).toBe(50161);
    expect(fake.sent).toEqual([]);
  });
});
