import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stockSpeechAudio } from './fake-speech-audio.js';
import type {
  FakeSpeechError,
  FakeSpeechOptions,
  FakeSpeechReply,
  FakeSpeechServer,
  FakeTranscriptionRecord,
} from './fake-speech-types.js';
import { listen, readJsonBody, sendJson, sleep } from './http-helpers.js';
import { createPocketsphinxRecogniser } from './pocketsphinx-recogniser.js';

function sendError(response: ServerResponse, error: FakeSpeechError): void {
  sendJson(response, error.status, {
    error: {
      message: error.message,
      type: error.type ?? 'invalid_request_error',
      param: null,
      code: error.code ?? null,
    },
  });
}

/** Whether `bytes` is a WAV file of 16 kHz mono 16-bit PCM (what pocketsphinx reads). */
function isSpeechWav(bytes: Uint8Array): boolean {
  if (bytes.length < 44) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  return (
    tag(0) === 'RIFF' &&
    tag(8) === 'WAVE' &&
    view.getUint16(20, true) === 1 &&
    view.getUint16(22, true) === 1 &&
    view.getUint32(24, true) === 16_000 &&
    view.getUint16(34, true) === 16
  );
}

/** Parses a multipart body with the platform's own parser (undici's `Request.formData`). */
async function readForm(request: IncomingMessage): Promise<FormData> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers))
    if (typeof value === 'string') headers.set(name, value);
  return new Request('http://fake/', { method: 'POST', headers, body: Buffer.concat(chunks) }).formData();
}

/**
 * Starts a fake OpenAI-compatible speech server on 127.0.0.1 (port 0): `POST /v1/audio/transcriptions`
 * (multipart `file`, `model`, optional `language`, `prompt`, `response_format`; answers `{ text }`)
 * and `POST /v1/audio/speech` (JSON `{ model, voice, input, response_format: 'opus' }`; answers Ogg
 * Opus). Errors are OpenAI's JSON `{ error: { message, type, param, code } }`. Every request is
 * recorded; replies are scripted (text, delay, hold, error) and `down()`/`up()` take it away and back.
 * With `recogniseSentences` and pocketsphinx installed, transcripts are really heard.
 *
 * @example
 * const speech = await startFakeSpeechServer({ transcript: 'what is the cpu load' });
 * // TRANSCRIBE_BASE_URL=speech.url
 */
export async function startFakeSpeechServer(options: FakeSpeechOptions = {}): Promise<FakeSpeechServer> {
  const transcriptions: FakeTranscriptionRecord[] = [];
  const speeches: FakeSpeechServer['speeches'] = [];
  const replies = [...(options.replies ?? [])];
  const recogniser = options.recogniseSentences
    ? createPocketsphinxRecogniser(options.recogniseSentences)
    : undefined;
  const held = new Set<() => void>();
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of waiters) waiter();
  };

  async function pause(reply: FakeSpeechReply, request: IncomingMessage): Promise<void> {
    if (reply.delayMs) await sleep(reply.delayMs);
    if (reply.hold)
      await new Promise<void>((resolve) => {
        held.add(resolve);
        request.socket.once('close', () => {
          held.delete(resolve);
          resolve();
        });
      });
  }

  async function transcribe(request: IncomingMessage, response: ServerResponse, reply: FakeSpeechReply) {
    let form: FormData;
    try {
      form = await readForm(request);
    } catch {
      return sendError(response, { status: 400, message: 'The request body is not multipart/form-data.' });
    }
    const fields: Record<string, string> = {};
    for (const [name, value] of form.entries()) if (typeof value === 'string') fields[name] = value;
    const file = form.get('file');
    const bytes = file instanceof Blob ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array(0);
    transcriptions.push({
      fields,
      model: fields.model,
      fileName: file instanceof File ? file.name : undefined,
      contentType: file instanceof Blob ? file.type || undefined : undefined,
      bytes,
      authorization: request.headers.authorization,
    });
    notify();
    await pause(reply, request);
    if (reply.error) return sendError(response, reply.error);
    if (!(file instanceof Blob))
      return sendError(response, { status: 400, message: "Missing the 'file' field." });
    if (!fields.model) return sendError(response, { status: 400, message: "Missing the 'model' field." });
    if (options.wavOnly && !isSpeechWav(bytes))
      return sendError(response, { status: 400, message: 'failed to read WAV file', code: 'invalid_file' });
    let text = reply.text ?? options.transcript ?? 'hello';
    if (reply.text === undefined && recogniser && isSpeechWav(bytes))
      text = await recogniser.recognise(bytes);
    sendJson(response, 200, { text, ...(reply.usage ? { usage: { type: 'tokens', ...reply.usage } } : {}) });
  }

  async function speak(request: IncomingMessage, response: ServerResponse, reply: FakeSpeechReply) {
    const body = (await readJsonBody(request).catch(() => undefined)) as Record<string, unknown> | undefined;
    speeches.push({
      model: body?.model,
      voice: body?.voice,
      input: body?.input,
      responseFormat: body?.response_format,
      authorization: request.headers.authorization,
    });
    notify();
    await pause(reply, request);
    if (reply.error) return sendError(response, reply.error);
    if (typeof body?.input !== 'string' || body.input === '')
      return sendError(response, { status: 400, message: "The 'input' field must be a non-empty string." });
    if (body.response_format !== 'opus')
      return sendError(response, { status: 400, message: 'This fake serves response_format "opus" only.' });
    const audio = reply.audio ?? stockSpeechAudio();
    response.writeHead(200, { 'content-type': 'audio/ogg', 'content-length': audio.length }).end(audio);
  }

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const route =
      request.method === 'POST'
        ? { '/v1/audio/transcriptions': transcribe, '/v1/audio/speech': speak }[path]
        : undefined;
    if (route === undefined)
      return sendError(response, { status: 404, message: `No route ${request.method} ${path}.` });
    if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`)
      return sendError(response, {
        status: 401,
        message: 'Incorrect API key provided.',
        code: 'invalid_api_key',
      });
    const reply = replies.shift() ?? {};
    route(request, response, reply).catch((error: unknown) => {
      if (!response.headersSent)
        sendError(response, { status: 500, message: String(error), type: 'server_error' });
    });
  });
  const base = await listen(server, '127.0.0.1', 0);
  const port = (server.address() as AddressInfo).port;

  return {
    url: `${base}/v1`,
    transcriptions,
    speeches,
    replies,
    recogniserAvailable: recogniser !== undefined,
    waitForRequests: (count) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (transcriptions.length + speeches.length < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    releaseHeld: () => {
      for (const release of [...held]) release();
      held.clear();
    },
    down: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    up: async () => {
      await listen(server, '127.0.0.1', port);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const release of held) release();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
