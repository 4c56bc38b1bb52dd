import { type FakeSpeechServer, startFakeSpeechServer } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTranscriber,
  decodeWav,
  demuxOggOpus,
  type Transcriber,
  type VoiceEvent,
} from '../src/index.js';
import { fixture } from './fixtures.js';

let servers: FakeSpeechServer[] = [];
let transcribers: Transcriber[] = [];
afterEach(async () => {
  for (const transcriber of transcribers) transcriber.close();
  transcribers = [];
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function server(options: Parameters<typeof startFakeSpeechServer>[0] = {}) {
  const started = await startFakeSpeechServer(options);
  servers.push(started);
  return started;
}

function transcriberFor(
  fakes: FakeSpeechServer[],
  options: Partial<Parameters<typeof createTranscriber>[0]> = {},
): Transcriber {
  const transcriber = createTranscriber({
    hosts: fakes.map((fake) => ({ baseUrl: fake.url })),
    model: 'whisper-1',
    ...options,
  });
  transcribers.push(transcriber);
  return transcriber;
}

async function failure(
  promise: Promise<unknown>,
): Promise<{ code?: string; message: string; name?: string }> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: { code?: string; message: string }) => error,
  );
}

describe('createTranscriber', () => {
  it('posts a voice note as 16 kHz WAV with the model, language and prompt, and returns the text', async () => {
    const fake = await server({ transcript: '  what is the cpu load right now ' });
    const transcriber = transcriberFor([fake], { language: 'en' });
    const result = await transcriber.transcribe({
      bytes: fixture('cpu-load.ogg'),
      name: 'voice-message.ogg',
      prompt: 'CPU, RAM',
    });
    expect(result).toMatchObject({
      text: 'what is the cpu load right now',
      model: 'whisper-1',
      host: fake.url.replace('/v1', '/…'),
    });
    expect(result.audioSeconds).toBeGreaterThan(2);
    const [received] = fake.transcriptions;
    expect(received?.fields).toEqual({
      model: 'whisper-1',
      language: 'en',
      prompt: 'CPU, RAM',
      response_format: 'json',
    });
    // Sent as it came: the server reads Ogg Opus, so nothing was decoded for it.
    expect(received).toMatchObject({ fileName: 'voice-message.ogg', contentType: 'audio/ogg' });
    expect(received?.bytes).toEqual(fixture('cpu-load.ogg'));
  });

  it('sends 16 kHz WAV to a server that refuses the file as it came, and WAV from then on', async () => {
    const fake = await server({ wavOnly: true, transcript: 'heard as wav' });
    const transcriber = transcriberFor([fake]);
    const first = await transcriber.transcribe({ bytes: fixture('cpu-load.ogg'), name: 'note.ogg' });
    expect(first.text).toBe('heard as wav');
    await transcriber.transcribe({ bytes: fixture('free-memory.ogg'), name: 'again.ogg' });
    expect(fake.transcriptions.map((record) => record.fileName)).toEqual([
      'note.ogg',
      'note.wav',
      'again.wav',
    ]);
    expect(decodeWav(fake.transcriptions[1]?.bytes as Uint8Array).sampleRate).toBe(16_000);
  });

  it('says a clip that cannot be decoded for a server that reads WAV only is corrupt, and keeps that server', async () => {
    const bytes = fixture('ten-seconds.ogg').slice();
    // The packets after the first second made invalid in place (a frame count of zero), the pages
    // around them intact: the checks hear speech at the start, the decode for WAV fails.
    const { frames } = demuxOggOpus(bytes);
    for (const frame of frames.slice(50)) {
      if (frame.length < 2) continue;
      frame[0] = (frame[0] as number) | 3;
      frame[1] = 0;
    }
    const wavOnly = await server({ wavOnly: true });
    const other = await server();
    const transcriber = transcriberFor([wavOnly, other]);
    const error = await failure(transcriber.transcribe({ bytes }));
    expect(error.code).toBe('VOICE_CORRUPT');
    expect(wavOnly.transcriptions.map((record) => record.contentType)).toEqual(['audio/ogg']);
    expect(other.transcriptions).toHaveLength(0);
    expect(transcriber.hosts().every((host) => host.healthy)).toBe(true);
  });

  it('sends WAV first when told to', async () => {
    const fake = await server();
    await transcriberFor([fake], { sendAs: 'wav' }).transcribe({
      bytes: fixture('cpu-load.ogg'),
      name: 'n.ogg',
    });
    expect(fake.transcriptions[0]).toMatchObject({ fileName: 'n.wav', contentType: 'audio/wav' });
  });

  it('reads the tokens a server reports', async () => {
    const fake = await server({
      replies: [{ text: 'hi', usage: { input_tokens: 14, output_tokens: 3, total_tokens: 17 } }],
    });
    const result = await transcriberFor([fake]).transcribe({ bytes: fixture('cpu-load.ogg') });
    expect(result.tokens).toEqual({ input: 14, output: 3, total: 17 });
  });

  it('adds input and output up when a server reports no total, and reports no tokens when it gives no usage', async () => {
    const fake = await server({
      replies: [{ text: 'hi', usage: { input_tokens: 14, output_tokens: 3 } }, { text: 'hi' }],
    });
    const transcriber = transcriberFor([fake]);
    expect((await transcriber.transcribe({ bytes: fixture('cpu-load.ogg') })).tokens).toEqual({
      input: 14,
      output: 3,
      total: 17,
    });
    expect((await transcriber.transcribe({ bytes: fixture('cpu-load.ogg') })).tokens).toBeUndefined();
  });

  it('sends the key a server wants', async () => {
    const fake = await server({ apiKey: 'sk-test' });
    const transcriber = createTranscriber({
      hosts: [{ baseUrl: fake.url, apiKey: 'sk-test' }],
      model: 'whisper-1',
    });
    transcribers.push(transcriber);
    await transcriber.transcribe({ bytes: fixture('cpu-load.ogg') });
    expect(fake.transcriptions[0]?.authorization).toBe('Bearer sk-test');
  });

  it("turns the server's JSON error into one sentence naming the request", async () => {
    const fake = await server({
      replies: [
        { error: { status: 404, message: "The model 'whisper-9' does not exist", code: 'model_not_found' } },
      ],
    });
    const error = await failure(transcriberFor([fake]).transcribe({ bytes: fixture('cpu-load.ogg') }));
    expect(error).toMatchObject({
      code: 'VOICE_SERVER_REFUSED',
      message: `The transcription server refused the request: [POST] ${fake.url.replace('/v1', '/…')}: 404 The model 'whisper-9' does not exist.`,
    });
  });

  it('says a server that is down is not reachable, in one sentence', async () => {
    const fake = await server();
    await fake.down();
    const error = await failure(transcriberFor([fake]).transcribe({ bytes: fixture('cpu-load.ogg') }));
    expect(error.code).toBe('VOICE_UNREACHABLE');
    expect(error.message).toMatch(
      /^The transcription server at http:\/\/127\.0\.0\.1:\d+\/… is not reachable \(ECONNREFUSED\): start it, or check its address\.$/,
    );
  });

  it('gives up on a slow server at the time limit, in one sentence', async () => {
    const fake = await server({ replies: [{ hold: true }] });
    const error = await failure(
      transcriberFor([fake], { requestTimeoutMs: 1_000 }).transcribe({ bytes: fixture('cpu-load.ogg') }),
    );
    expect(error.code).toBe('VOICE_TIMEOUT');
    expect(error.message).toMatch(/did not answer within 1 seconds\.$/);
  });

  it("stops at the caller's abort with the caller's reason, and does not try another host", async () => {
    const slow = await server({ replies: [{ hold: true }] });
    const other = await server();
    const controller = new AbortController();
    const pending = transcriberFor([slow, other]).transcribe(
      { bytes: fixture('cpu-load.ogg') },
      { signal: controller.signal },
    );
    await slow.waitForRequests(1);
    controller.abort(new Error('the user pressed stop'));
    expect((await failure(pending)).message).toBe('the user pressed stop');
    expect(other.transcriptions).toHaveLength(0);
  });

  it('fails over to another host when one is down', async () => {
    const down = await server();
    const up = await server({ transcript: 'from the second host' });
    await down.down();
    const transcriber = transcriberFor([down, up]);
    const result = await transcriber.transcribe({ bytes: fixture('cpu-load.ogg') });
    expect(result.text).toBe('from the second host');
    expect(transcriber.hosts().find((host) => host.baseUrl === down.url)?.healthy).toBe(false);
  });

  it('keeps a host that refused the request itself, and asks no other host', async () => {
    const invalid = { error: { status: 400, message: 'Invalid file format.' } };
    const first = await server({ replies: [invalid, invalid] });
    const second = await server();
    const transcriber = transcriberFor([first, second]);
    const error = await failure(transcriber.transcribe({ bytes: fixture('cpu-load.ogg') }));
    expect(error.message).toMatch(/: 400 Invalid file format\.$/);
    // As it came, then as WAV, to the same host; never to the other.
    expect(first.transcriptions.map((record) => record.contentType)).toEqual(['audio/ogg', 'audio/wav']);
    expect(second.transcriptions).toHaveLength(0);
    expect(transcriber.hosts().every((host) => host.healthy)).toBe(true);
  });

  it('tries another host when one fails with a server error', async () => {
    const first = await server({
      replies: [{ error: { status: 500, message: 'CUDA out of memory', type: 'server_error' } }],
    });
    const second = await server({ transcript: 'from the second host' });
    const transcriber = transcriberFor([first, second]);
    expect((await transcriber.transcribe({ bytes: fixture('cpu-load.ogg') })).text).toBe(
      'from the second host',
    );
    expect(transcriber.hosts().find((host) => host.baseUrl === first.url)?.healthy).toBe(false);
  });

  it('answers once the server is back', async () => {
    const fake = await server({ transcript: 'back again' });
    await fake.down();
    const transcriber = transcriberFor([fake]);
    expect((await failure(transcriber.transcribe({ bytes: fixture('cpu-load.ogg') }))).code).toBe(
      'VOICE_UNREACHABLE',
    );
    await fake.up();
    expect((await transcriber.transcribe({ bytes: fixture('cpu-load.ogg') })).text).toBe('back again');
  });

  it('refuses bad audio before sending anything', async () => {
    const fake = await server();
    const error = await failure(transcriberFor([fake]).transcribe({ bytes: fixture('silent.ogg') }));
    expect(error.code).toBe('VOICE_SILENT');
    expect(fake.transcriptions).toHaveLength(0);
  });

  it('reports each call for counters', async () => {
    const fake = await server({
      replies: [{}, { error: { status: 500, message: 'boom', type: 'server_error' } }],
    });
    const events: VoiceEvent[] = [];
    const transcriber = transcriberFor([fake], { onEvent: (event) => events.push(event) });
    await transcriber.transcribe({ bytes: fixture('cpu-load.ogg') });
    await failure(transcriber.transcribe({ bytes: fixture('cpu-load.ogg') }));
    expect(events.map((event) => [event.type, event.outcome, event.errorType])).toEqual([
      ['transcription', 'ok', undefined],
      ['transcription', 'error', 'VOICE_SERVER_REFUSED'],
    ]);
    expect(events[0]?.audioSeconds).toBeGreaterThan(2);
  });

  it('refuses options without a host or a model', () => {
    expect(() => createTranscriber({ hosts: [], model: 'whisper-1' })).toThrow(
      'createTranscriber needs at least one host.',
    );
    expect(() => createTranscriber({ hosts: [{ baseUrl: 'ftp://x' }], model: 'm' })).toThrow(/http\(s\) URL/);
    expect(() => createTranscriber({ hosts: [{ baseUrl: 'http://127.0.0.1:1/v1' }], model: ' ' })).toThrow(
      /needs model/,
    );
  });
});
