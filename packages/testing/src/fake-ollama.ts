import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { fitInWindow } from './fake-context-window.js';
import { type ScriptedReply, STOCK_REPLY, writeReply } from './fake-ollama-reply-writer.js';
import type {
  FakeChatRequest,
  FakeOllama,
  FakeOllamaModel,
  FakeOllamaOptions,
  FakeOllamaReply,
  FakePromptRecord,
  FakeRequestRecord,
} from './fake-ollama-types.js';
import { listen, readJsonBody, sendJson, sleep } from './http-helpers.js';

/** Models the fake serves when none are given: two with native tools, one without. */
export const FAKE_OLLAMA_DEFAULT_MODELS: readonly FakeOllamaModel[] = [
  { name: 'llama3.2:3b', capabilities: ['completion', 'tools'], family: 'llama', parameterSize: '3.2B' },
  { name: 'qwen2.5:7b', capabilities: ['completion', 'tools'], family: 'qwen2', parameterSize: '7.6B' },
  { name: 'gemma2:2b', capabilities: ['completion'], family: 'gemma2', parameterSize: '2.6B' },
];

function normaliseModelName(name: string): string {
  return name.includes(':') ? name : `${name}:latest`;
}

/**
 * Starts a fake Ollama server on loopback that the real `ollama` npm client works against:
 * `/api/chat` (streaming and not), `/api/tags`, `/api/ps`, `/api/show`, `/api/version`, scripted replies
 * and faults on demand.
 *
 * @example
 * const fake = await startFakeOllama({ replies: ['FETCH_URL: https://example.com', 'Done.'] });
 * const client = new Ollama({ host: fake.url });
 * await client.chat({ model: 'llama3.2:3b', messages: [{ role: 'user', content: 'hi' }] });
 * await fake.close();
 */
export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeOllama> {
  const models = (options.models ?? FAKE_OLLAMA_DEFAULT_MODELS).map((model) => ({
    ...model,
    name: normaliseModelName(model.name),
  }));
  const queue: FakeOllamaReply[] = [...(options.replies ?? [])];
  let replyFunction = options.reply;
  const requests: FakeChatRequest[] = [];
  const log: FakeRequestRecord[] = [];
  const prompts: FakePromptRecord[] = [];
  // What each model read last: its cache, for the prompt tokens it reports.
  const lastRead = new Map<string, FakeChatRequest>();
  const sockets = new Set<Socket>();
  let chatIndex = 0;
  // In memory now: `options.loaded` when given, else every model without a load delay.
  const loaded = new Set(
    options.loaded !== undefined
      ? options.loaded.map(normaliseModelName)
      : models.filter((model) => model.loaded ?? !model.loadDelayMs).map((model) => model.name),
  );
  // Loads under way, so requests that arrive together wait for one load, as Ollama does.
  const loading = new Map<string, Promise<void>>();

  async function load(model: FakeOllamaModel): Promise<void> {
    if (loaded.has(model.name) || !model.loadDelayMs) {
      loaded.add(model.name);
      return;
    }
    let pending = loading.get(model.name);
    if (!pending) {
      pending = sleep(model.loadDelayMs).then(() => {
        loaded.add(model.name);
        loading.delete(model.name);
      });
      loading.set(model.name, pending);
    }
    await pending;
  }

  const findModel = (name: unknown) =>
    typeof name === 'string' ? models.find((model) => model.name === normaliseModelName(name)) : undefined;

  async function nextReply(request: FakeChatRequest, index: number): Promise<ScriptedReply> {
    const queued = queue.shift();
    const reply = queued ?? (replyFunction ? await replyFunction(request, index) : STOCK_REPLY);
    return typeof reply === 'string' ? { content: reply } : reply;
  }

  async function handleChat(request: IncomingMessage, response: ServerResponse, body: FakeChatRequest) {
    const index = chatIndex++;
    requests.push(body);
    const model = findModel(body.model);
    if (!model) {
      sendJson(response, 404, { error: `model "${body.model}" not found, try pulling it first` });
      return;
    }
    if (
      body.tools &&
      body.tools.length > 0 &&
      !(model.capabilities ?? ['completion', 'tools']).includes('tools')
    ) {
      sendJson(response, 400, { error: `"${body.model}" does not support tools` });
      return;
    }
    await load(model);
    if (response.destroyed) return;
    // The model reads what fits in its window; what it read is what it answers and counts.
    const fitted = fitInWindow(body, model, options.defaultContextLength ?? 2048, lastRead.get(model.name));
    lastRead.set(model.name, fitted.request);
    prompts.push(fitted.record);
    const reply = await nextReply(fitted.request, index);
    if (reply.delayMs) await sleep(reply.delayMs);
    if (response.destroyed) return;
    const counted =
      fitted.record.window === null ? reply : { promptEvalCount: fitted.record.evaluated, ...reply };
    await writeReply(request, response, fitted.request, model.name, counted);
  }

  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    readJsonBody(request)
      .then(async (body) => {
        log.push({ method: request.method ?? 'GET', path, body });
        if (request.method === 'GET' && path === '/') {
          response.writeHead(200, { 'content-type': 'text/plain' }).end('Ollama is running');
        } else if (request.method === 'HEAD' && path === '/') {
          response.writeHead(200).end();
        } else if (request.method === 'GET' && path === '/api/version') {
          sendJson(response, 200, { version: options.version ?? '0.12.0' });
        } else if (request.method === 'GET' && path === '/api/tags') {
          sendJson(response, 200, { models: models.map(tagEntry) });
        } else if (request.method === 'GET' && path === '/api/ps') {
          sendJson(response, 200, { models: [...loaded].map((name) => runningEntry(name, findModel(name))) });
        } else if (request.method === 'POST' && path === '/api/show') {
          const asked = (body ?? {}) as { model?: unknown; name?: unknown };
          handleShow(response, asked.model ?? asked.name, findModel(asked.model ?? asked.name));
        } else if (request.method === 'POST' && path === '/api/chat') {
          if (!body || typeof body !== 'object' || !Array.isArray((body as FakeChatRequest).messages)) {
            sendJson(response, 400, { error: 'invalid request: messages are required' });
            return;
          }
          const chat = body as FakeChatRequest;
          if (chat.stream === undefined) chat.stream = true; // Ollama's own default
          await handleChat(request, response, chat);
        } else {
          sendJson(response, 404, { error: `${request.method} ${path} is not served by the fake Ollama` });
        }
      })
      .catch((error: unknown) => {
        if (!response.headersSent)
          sendJson(response, 400, { error: String((error as Error).message ?? error) });
        else response.destroy();
      });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const url = await listen(server, options.host ?? '127.0.0.1', options.port ?? 0);

  return {
    url,
    requests,
    log,
    prompts,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    setReply: (reply) => {
      replyFunction = reply;
    },
    loaded: () => [...loaded],
    unload: (name) => {
      loaded.delete(normaliseModelName(name));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `/api/show` for a model (404 when the fake has none by that name). */
function handleShow(response: ServerResponse, name: unknown, model: FakeOllamaModel | undefined) {
  if (!model) {
    sendJson(response, 404, { error: `model '${String(name)}' not found` });
    return;
  }
  sendJson(response, 200, {
    modelfile: `FROM ${model.name}`,
    parameters: 'stop "<|eot_id|>"',
    template: '{{ .Prompt }}',
    details: modelDetails(model),
    model_info: {
      'general.architecture': model.family ?? 'llama',
      ...(model.contextLength ? { [`${model.family ?? 'llama'}.context_length`]: model.contextLength } : {}),
    },
    capabilities: model.capabilities ?? ['completion', 'tools'],
    modified_at: '2026-01-01T00:00:00Z',
  });
}

/** A model's `details`, as `/api/tags`, `/api/ps` and `/api/show` give them. */
function modelDetails(model: FakeOllamaModel) {
  return {
    parent_model: '',
    format: 'gguf',
    family: model.family ?? 'llama',
    families: [model.family ?? 'llama'],
    parameter_size: model.parameterSize ?? '3B',
    quantization_level: 'Q4_K_M',
  };
}

const digestOf = (name: string) => `sha256:${Buffer.from(name).toString('hex').padEnd(64, '0').slice(0, 64)}`;

/** A model as `/api/tags` lists it. */
function tagEntry(model: FakeOllamaModel) {
  return {
    name: model.name,
    model: model.name,
    modified_at: '2026-01-01T00:00:00Z',
    size: 2_019_393_189,
    digest: digestOf(model.name),
    details: modelDetails(model),
  };
}

/** A loaded model as `/api/ps` lists it. */
function runningEntry(name: string, model: FakeOllamaModel | undefined) {
  return {
    name,
    model: name,
    size: 2_019_393_189,
    digest: digestOf(name),
    ...(model ? { details: modelDetails(model) } : {}),
    expires_at: '2099-01-01T00:00:00Z',
    size_vram: 2_019_393_189,
  };
}
