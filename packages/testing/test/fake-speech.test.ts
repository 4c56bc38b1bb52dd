import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeSpeechServer,
  STOCK_SPEECH_TEXT,
  startFakeSpeechServer,
  stockSpeechAudio,
} from '../src/index.js';

let fake: FakeSpeechServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function form(bytes: Uint8Array, fields: Record<string, string> = { model: 'whisper-1' }): FormData {
  const body = new FormData();
  body.append('file', new Blob([bytes], { type: 'audio/ogg' }), 'note.ogg');
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

describe('startFakeSpeechServer', () => {
  it('parses the multipart form and records the fields, the file and its type', async () => {
    fake = await startFakeSpeechServer({ transcript: 'hello there' });
    const response = await fetch(`${fake.url}/audio/transcriptions`, {
      method: 'POST',
      body: form(new Uint8Array([1, 2, 3]), { model: 'whisper-1', language: 'en' }),
    });
    expect(await response.json()).toEqual({ text: 'hello there' });
    expect(fake.transcriptions[0]).toMatchObject({
      fields: { model: 'whisper-1', language: 'en' },
      fileName: 'note.ogg',
      contentType: 'audio/ogg',
      bytes: new Uint8Array([1, 2, 3]),
    });
  });

  it("answers errors as OpenAI's JSON", async () => {
    fake = await startFakeSpeechServer({ wavOnly: true });
    const response = await fetch(`${fake.url}/audio/transcriptions`, {
      method: 'POST',
      body: form(new Uint8Array(64)),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: 'failed to read WAV file',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_file',
      },
    });
    const missing = await fetch(`${fake.url}/audio/transcriptions`, {
      method: 'POST',
      body: form(new Uint8Array(4), {}),
    });
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBe(
      "Missing the 'model' field.",
    );
  });

  it('speaks a real Ogg Opus file and records what it was asked', async () => {
    fake = await startFakeSpeechServer();
    const response = await fetch(`${fake.url}/audio/speech`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: 'Hi.', response_format: 'opus' }),
    });
    expect(response.headers.get('content-type')).toBe('audio/ogg');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 4)).toString()).toBe('OggS');
    expect(bytes).toEqual(stockSpeechAudio());
    expect(STOCK_SPEECH_TEXT).toBe('Here is your answer.');
    expect(fake.speeches).toEqual([
      { model: 'tts-1', voice: 'alloy', input: 'Hi.', responseFormat: 'opus', authorization: undefined },
    ]);
  });

  it('holds a request until released, and goes down and comes back on the same address', async () => {
    fake = await startFakeSpeechServer({ replies: [{ hold: true, text: 'late' }] });
    const pending = fetch(`${fake.url}/audio/transcriptions`, {
      method: 'POST',
      body: form(new Uint8Array(4)),
    });
    await fake.waitForRequests(1);
    fake.releaseHeld();
    expect(await (await pending).json()).toEqual({ text: 'late' });
    await fake.down();
    await expect(
      fetch(`${fake.url}/audio/transcriptions`, { method: 'POST', body: form(new Uint8Array(4)) }),
    ).rejects.toThrow('fetch failed');
    await fake.up();
    expect(
      (await fetch(`${fake.url}/audio/transcriptions`, { method: 'POST', body: form(new Uint8Array(4)) }))
        .status,
    ).toBe(200);
  });

  it('refuses a missing or wrong key with 401', async () => {
    fake = await startFakeSpeechServer({ apiKey: 'sk-1' });
    const response = await fetch(`${fake.url}/audio/transcriptions`, {
      method: 'POST',
      body: form(new Uint8Array(4)),
    });
    expect(response.status).toBe(401);
  });
});
