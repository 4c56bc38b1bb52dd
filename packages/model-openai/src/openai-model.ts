import {
  type ChatModel,
  type ChatReply,
  type ChatRequest,
  createTokenDeadline,
  type Logger,
  MacstatsError,
  type ModelCapabilities,
  type ModelSettingNames,
  silentLogger,
} from '@macstats/core';
import { importOptional } from '@macstats/core/internal';
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { OPENAI_MODEL_DEFAULTS } from './defaults.js';
import { describeOpenAiError, openAiError, toOpenAiError } from './openai-errors.js';
import { toOpenAiMessages, toOpenAiTools } from './openai-messages.js';
import { ReplyAssembler } from './reply-assembler.js';
import { listServerModels, type OpenAiServerModel, readLlamaServerContext } from './server-info.js';

/** Options of {@link createOpenAiModel}. */
export interface OpenAiModelOptions {
  /** The API's base URL, usually ending in `/v1`: `http://127.0.0.1:8080/v1` for llama-server. */
  baseUrl: string;
  /** The app's names of the settings that fix this server's problems, for its error sentences. */
  settingNames?: ModelSettingNames | undefined;
  /** Bearer key, when the server wants one (vLLM `--api-key`, a hosted API). */
  apiKey?: string | undefined;
  /** The model that answers, as the server lists it at `/v1/models`. */
  model: string;
  /** Longest wait for the first token (the whole reply when not streamed) when the request gives none, in ms. Default 300 000. */
  firstTokenTimeoutMs?: number | undefined;
  /** Longest silence between streamed tokens when the request gives none, in ms. Default 60 000. */
  betweenTokensTimeoutMs?: number | undefined;
  /**
   * Whether to offer native tools. Default true: a server that refuses them answers with an
   * `OPENAI_TOOLS_UNSUPPORTED` error (`unsupported: 'tools'`) and the agent falls back to the text protocol.
   */
  tools?: boolean | undefined;
  /** Whether the model takes images. Default false. */
  vision?: boolean | undefined;
  /** Where warnings go (tool arguments that were not JSON). Default: silent. */
  logger?: Logger | undefined;
  /** The `fetch` the client uses; default the global one. */
  fetch?: typeof fetch | undefined;
}

/** An OpenAI-compatible chat model behind core's port, with the server it talks to. */
export interface OpenAiChatModel extends ChatModel {
  readonly baseUrl: string;
  /** The models the server lists, with their context length and whether loaded, when it says. */
  listModels(options?: { signal?: AbortSignal }): Promise<OpenAiServerModel[]>;
}

/**
 * An OpenAI-compatible chat server (llama.cpp's llama-server, LM Studio, vLLM, Ollama's `/v1`)
 * behind core's `ChatModel` port, through the official `openai` client. Streams when the request
 * has `onToken`, assembling tool-call fragments by index; reads usage from the last chunk.
 * Context length comes from the server's own report (`/v1/models`, else llama-server's `/props`).
 *
 * @example
 * const model = createOpenAiModel({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen3-4b' });
 * const agent = createAgent({ model, tools: [] });
 */
export function createOpenAiModel(options: OpenAiModelOptions): OpenAiChatModel {
  if (typeof options.baseUrl !== 'string' || !/^https?:\/\//i.test(options.baseUrl))
    throw openAiError(
      'INVALID_OPTION',
      'createOpenAiModel needs baseUrl, an http(s) URL such as http://127.0.0.1:8080/v1',
    );
  if (typeof options.model !== 'string' || options.model.trim() === '')
    throw openAiError(
      'INVALID_OPTION',
      'createOpenAiModel needs model, the name the server lists at /v1/models',
    );
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const name = options.model;
  const logger = options.logger ?? silentLogger;
  const defaultTimeoutMs = options.firstTokenTimeoutMs ?? OPENAI_MODEL_DEFAULTS.firstTokenTimeoutMs;
  const defaultBetweenMs = options.betweenTokensTimeoutMs ?? OPENAI_MODEL_DEFAULTS.betweenTokensTimeoutMs;
  const clientOf = lazyClient(options, baseUrl);
  const known = new Map<string, ModelCapabilities>();

  async function chat(request: ChatRequest): Promise<ChatReply> {
    const started = performance.now();
    const openai = await clientOf();
    const deadline = createTokenDeadline(
      {
        firstTokenMs: request.firstTokenTimeoutMs ?? request.timeoutMs ?? defaultTimeoutMs,
        betweenTokensMs: request.betweenTokensTimeoutMs ?? defaultBetweenMs,
      },
      request.signal,
    );
    const signal = deadline.signal;
    const tools = request.tools && request.tools.length > 0 ? toOpenAiTools(request.tools) : undefined;
    const body: ChatCompletionCreateParamsBase = {
      model: request.model ?? name,
      messages: toOpenAiMessages(request.messages),
      ...(tools ? { tools } : {}),
    };
    const reply = new ReplyAssembler();
    let phase: 'request' | 'stream' = 'request';
    let firstTokenAt: number | null = null;
    try {
      if (request.onToken) {
        const stream = await openai.chat.completions.create(
          { ...body, stream: true, stream_options: { include_usage: true } },
          { signal },
        );
        phase = 'stream';
        for await (const chunk of stream) {
          deadline.tokenArrived();
          const piece = reply.add(chunk);
          if (piece) {
            firstTokenAt ??= performance.now();
            request.onToken(piece);
          }
        }
        // The client ends the loop quietly when its signal aborts: that is a timeout or the caller.
        signal.throwIfAborted();
        if (reply.finishReason === null && reply.content === '' && reply.toolCalls().length === 0)
          throw openAiError('OPENAI_BAD_RESPONSE', 'the reply ended before it said anything');
      } else {
        reply.addCompletion(await openai.chat.completions.create({ ...body, stream: false }, { signal }));
      }
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason;
      const expired = deadline.expired();
      if (expired === 'between-tokens')
        throw openAiError(
          'OPENAI_STALLED',
          `the reply stopped for more than ${deadline.limitMs()} ms in the middle`,
          { cause: error },
        );
      if (expired === 'first-token')
        throw openAiError('OPENAI_TIMEOUT', `no answer within ${deadline.limitMs()} ms`, {
          cause: error,
        });
      throw toOpenAiError(error, { sentTools: tools !== undefined, phase });
    } finally {
      deadline.clear();
    }
    const toolCalls = reply.toolCalls();
    if (reply.malformed.length > 0)
      logger.warn(
        { model: body.model, tools: reply.malformed },
        'tool call arguments were not a JSON object',
      );
    return finishedReply(reply, toolCalls, started, firstTokenAt);
  }

  async function listModels(asked: { signal?: AbortSignal } = {}) {
    return listServerModels(await clientOf(), { signal: asked.signal });
  }

  async function capabilities(
    asked: { model?: string; signal?: AbortSignal } = {},
  ): Promise<ModelCapabilities> {
    const forModel = asked.model ?? name;
    const cached = known.get(forModel);
    if (cached) return cached;
    const listed = await listModels(asked.signal ? { signal: asked.signal } : {});
    const entry = listed.find((model) => model.id === forModel);
    const contextLength =
      entry?.contextLength ??
      (await readLlamaServerContext(baseUrl, {
        signal: asked.signal,
        fetch: options.fetch,
        apiKey: options.apiKey,
      }));
    const found: ModelCapabilities = {
      tools: options.tools ?? true,
      vision: options.vision ?? false,
      thinking: false,
      contextLength,
    };
    known.set(forModel, found);
    return found;
  }

  return {
    model: name,
    // As spans name it (`gen_ai.provider.name`): the API these servers speak.
    provider: 'openai',
    baseUrl,
    chat,
    capabilities,
    listModels,
    describeError: (error, asked) =>
      MacstatsError.isInstance(error) && error.code.startsWith('OPENAI_')
        ? describeOpenAiError(error, {
            baseUrl,
            model: asked?.model ?? name,
            timeoutMs: defaultTimeoutMs,
            betweenTokensTimeoutMs: defaultBetweenMs,
            settings: options.settingNames,
          })
        : undefined,
  };
}

/**
 * The `openai` client, made on the first request: it is an optional peer, so a configuration on
 * Ollama never installs or loads it. A failed load is not kept, so installing it fixes the next one.
 */
function lazyClient(options: OpenAiModelOptions, baseUrl: string): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | undefined;
  return () =>
    (client ??= importOptional(
      'openai',
      'The OpenAI-compatible model (MODEL_PROVIDER=openai)',
      () => import('openai'),
    ).then(
      ({ default: OpenAiClient }) =>
        new OpenAiClient({
          baseURL: baseUrl,
          apiKey: options.apiKey || OPENAI_MODEL_DEFAULTS.placeholderApiKey,
          organization: null,
          project: null,
          // Our own limits and signals decide; the client neither retries nor times out on its own.
          maxRetries: 0,
          timeout: 2 ** 31 - 1,
          logLevel: 'off',
          ...(options.fetch ? { fetch: options.fetch } : {}),
        }),
      (error: unknown) => {
        client = undefined;
        throw error;
      },
    ));
}

/** The reply with its usage: the server's tokens per second, else ours from the first token on. */
function finishedReply(
  reply: ReplyAssembler,
  toolCalls: ChatReply['toolCalls'],
  started: number,
  firstTokenAt: number | null,
): ChatReply {
  const durationMs = performance.now() - started;
  const generating = firstTokenAt === null ? durationMs : performance.now() - firstTokenAt;
  const tokensPerSecond =
    reply.serverTokensPerSecond ??
    (reply.completionTokens !== null && generating > 0 ? (reply.completionTokens * 1000) / generating : null);
  return {
    content: reply.content,
    toolCalls,
    usage: {
      promptTokens: reply.promptTokens,
      completionTokens: reply.completionTokens,
      durationMs,
      tokensPerSecond,
    },
  };
}
