import { createServer, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FakeRequestRecord } from './fake-ollama-types.js';
import {
  type ScriptedOpenAiReply,
  STOCK_OPENAI_REPLY,
  sendOpenAiError,
  writeOpenAiReply,
} from './fake-openai-reply.js';
import type {
  FakeOpenAi,
  FakeOpenAiChatRequest,
  FakeOpenAiModel,
  FakeOpenAiOptions,
  FakeOpenAiReply,
} from './fake-openai-types.js';
import { listen, readJsonBody, sendJson, sleep } from './http-helpers.js';

/** The model the fake serves when none are given. */
export const FAKE_OPENAI_DEFAULT_MODELS: readonly FakeOpenAiModel[] = [{ id: 'local-model' }];

/** What is wrong with a request's messages, the way OpenAI-compatible servers refuse them; null when fine. */
function invalidMessages(messages: FakeOpenAiChatRequest['messages']): string | null {
  const open = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (!['system', 'user', 'assistant', 'tool', 'developer'].includes(message.role))
      return `messages[${index}].role: unknown role "${message.role}"`;
    for (const call of message.tool_calls ?? []) {
      if (typeof call.id !== 'string' || typeof call.function?.arguments !== 'string')
        return `messages[${index}].tool_calls: each call needs an id and string arguments`;
      open.add(call.id);
    }
    if (message.role === 'tool') {
      if (!message.tool_call_id || !open.has(message.tool_call_id))
        return `messages[${index}]: tool_call_id "${message.tool_call_id}" answers no earlier tool call`;
      open.delete(message.tool_call_id);
    }
  }
  return null;
}

/**
 * Starts a fake OpenAI-compatible server on loopback (the shape of llama.cpp's llama-server,
 * vLLM and LM Studio) that the official `openai` client works against unchanged:
 * `POST /v1/chat/completions` (streamed as server-sent events with `delta.tool_calls[]` fragments
 * and a usage chunk, or one JSON body), `GET /v1/models`, llama-server's `GET /props`, scripted
 * replies and faults.
 *
 * @example
 * const fake = await startFakeOpenAi({ replies: [{ toolCalls: [{ name: 'ADD', arguments: { a: 1, b: 2 } }] }] });
 * const client = new OpenAI({ baseURL: fake.url, apiKey: 'none' });
 * await fake.close();
 */
export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const models = options.models ?? FAKE_OPENAI_DEFAULT_MODELS;
  const queue: FakeOpenAiReply[] = [...(options.replies ?? [])];
  let replyFunction = options.reply;
  const requests: FakeOpenAiChatRequest[] = [];
  const log: FakeRequestRecord[] = [];
  const sockets = new Set<Socket>();
  let chatIndex = 0;

  async function nextReply(request: FakeOpenAiChatRequest, index: number): Promise<ScriptedOpenAiReply> {
    const queued = queue.shift();
    const reply = queued ?? (replyFunction ? await replyFunction(request, index) : STOCK_OPENAI_REPLY);
    return typeof reply === 'string' ? { content: reply } : reply;
  }

  function authorised(request: IncomingMessage): boolean {
    return options.apiKey === undefined || request.headers.authorization === `Bearer ${options.apiKey}`;
  }

  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    readJsonBody(request)
      .then(async (body) => {
        log.push({ method: request.method ?? 'GET', path, body });
        if (!authorised(request)) {
          sendOpenAiError(response, 401, 'Invalid API key', 'authentication_error');
        } else if (request.method === 'GET' && path === '/v1/models') {
          sendJson(response, 200, {
            object: 'list',
            data: models.map((model) => ({
              id: model.id,
              object: 'model',
              created: 1_767_225_600,
              owned_by: model.ownedBy ?? 'fake',
              ...(model.maxModelLen !== undefined ? { max_model_len: model.maxModelLen } : {}),
              ...(model.status !== undefined ? { status: { value: model.status } } : {}),
            })),
          });
        } else if (request.method === 'GET' && path === '/props' && options.propsContextLength !== null) {
          sendJson(response, 200, {
            default_generation_settings: { n_ctx: options.propsContextLength ?? 8192 },
            total_slots: 1,
          });
        } else if (request.method === 'POST' && path === '/v1/chat/completions') {
          const chat = body as FakeOpenAiChatRequest;
          const problem =
            !chat || typeof chat !== 'object' || !Array.isArray(chat.messages)
              ? 'messages is required'
              : invalidMessages(chat.messages);
          if (problem) {
            sendOpenAiError(response, 400, problem, 'invalid_request_error');
            return;
          }
          const index = chatIndex++;
          requests.push(chat);
          if (!models.some((model) => model.id === chat.model)) {
            sendOpenAiError(
              response,
              404,
              `The model \`${chat.model}\` does not exist.`,
              'invalid_request_error',
            );
            return;
          }
          if (options.toolsSupported === false && chat.tools && chat.tools.length > 0) {
            sendOpenAiError(
              response,
              400,
              '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
              'BadRequestError',
            );
            return;
          }
          const reply = await nextReply(chat, index);
          if (reply.delayMs) await sleep(reply.delayMs);
          if (!response.destroyed) await writeOpenAiReply(response, chat, reply, String(index));
        } else {
          sendOpenAiError(response, 404, `${request.method} ${path} is not served by the fake`, 'not_found');
        }
      })
      .catch((error: unknown) => {
        if (!response.headersSent)
          sendOpenAiError(response, 400, String((error as Error).message ?? error), 'invalid_request_error');
        else response.destroy();
      });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  const origin = await listen(server, options.host ?? '127.0.0.1', options.port ?? 0);
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    log,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    setReply: (reply) => {
      replyFunction = reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
