import type { Message, Tool as OllamaTool, ToolCall as OllamaToolCall } from 'ollama';
import { AGENT_DEFAULTS, DEFAULT_OLLAMA_HOST } from '../defaults.js';
import { MacstatsError } from '../errors.js';
import type {
  ChatModel,
  ChatReply,
  ChatRequest,
  ModelCapabilities,
  ModelMessage,
  ModelSettingNames,
  ModelToolDefinition,
} from '../model/chat-model.js';
import { type ChatParams, chat, createOllamaSession, type OllamaSession, withOllama } from './chat.js';
import { describeOllamaError } from './ollama-errors.js';
import { sameModel } from './pick-model.js';

/** Options of {@link createOllamaModel}. */
export interface OllamaModelOptions {
  /** Ollama base URL. Default `http://127.0.0.1:11434`. */
  host?: string | undefined;
  /** The model that answers, as Ollama names it: `llama3.2:3b`. */
  model: string;
  /** Longest wait for the first token (model loading included) when the request gives none, in ms. Default 300 000. */
  firstTokenTimeoutMs?: number | undefined;
  /** Longest silence between streamed tokens when the request gives none, in ms. Default 60 000. */
  betweenTokensTimeoutMs?: number | undefined;
  /** @deprecated The first-token limit under its old name. */
  requestTimeoutMs?: number | undefined;
  /** Ollama's `keep_alive` sent with every chat: how long the model stays loaded (`"30m"`, seconds, `-1` for ever). Default: Ollama's own (5 minutes). */
  keepAlive?: string | number | undefined;
  /** Clock for the loaded-model cache, in milliseconds. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** The app's names of the settings that fix this server's problems, for its error sentences. */
  settingNames?: ModelSettingNames | undefined;
}

/** An Ollama chat model behind core's port, with the host it talks to. */
export interface OllamaChatModel extends ChatModel {
  readonly host: string;
}

/** A message as last sent in Ollama's shape, with the content it had then. */
type Sent = { from: ModelMessage; content: string; out: Message };

/**
 * The messages in Ollama's shape, reusing those of the session's last request: every request of
 * an answer sends the earlier messages again, the same objects in the same places. A message whose
 * content changed since is made anew.
 */
function toOllamaMessages(messages: readonly ModelMessage[], sent: Sent[]): Message[] {
  const out: Message[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as ModelMessage;
    const before = sent[index];
    if (before && before.from === message && before.content === message.content) {
      out.push(before.out);
      continue;
    }
    const made = ollamaMessageOf(message);
    sent[index] = { from: message, content: message.content, out: made };
    out.push(made);
  }
  // Only a shorter list cuts: setting `length` is a call into the runtime even when it changes nothing.
  if (sent.length > messages.length) sent.length = messages.length;
  return out;
}

function ollamaMessageOf(message: ModelMessage): Message {
  const out: Message = { role: message.role, content: message.content };
  if (message.toolCalls && message.toolCalls.length > 0)
    out.tool_calls = message.toolCalls.map((call) => ({
      function: { name: call.name, arguments: call.arguments },
    })) as OllamaToolCall[];
  if (message.toolName !== undefined) out.tool_name = message.toolName;
  if (message.images && message.images.length > 0) out.images = message.images;
  return out;
}

const ollamaTools = new WeakMap<readonly ModelToolDefinition[], OllamaTool[]>();

/** The definitions in Ollama's shape, made once per list (an answer sends the same list each call). */
function toOllamaTools(definitions: readonly ModelToolDefinition[]): OllamaTool[] {
  let tools = ollamaTools.get(definitions);
  if (!tools) {
    tools = definitions.map(toOllamaTool);
    ollamaTools.set(definitions, tools);
  }
  return tools;
}

function toOllamaTool(definition: ModelToolDefinition): OllamaTool {
  return {
    type: 'function',
    function: {
      name: definition.name,
      description: definition.description,
      parameters: definition.parameters as NonNullable<OllamaTool['function']['parameters']>,
    },
  };
}

/** The context length in `/api/show`'s model info (`<family>.context_length`), when it is there. */
function contextLength(info: Record<string, unknown> | Map<string, unknown> | undefined): number | null {
  const entries = info instanceof Map ? [...info.entries()] : Object.entries(info ?? {});
  for (const [key, value] of entries) {
    if (key.endsWith('.context_length') && typeof value === 'number' && value > 0) return value;
  }
  return null;
}

/**
 * Core's default model: Ollama through the `ollama` client. Ollama's own types stay in here; the
 * agent sees only the port. Capabilities come from `/api/show` once per model; a failed read is
 * not cached (Ollama may be starting), and reports no tools, so the text protocol is used.
 *
 * @example
 * const model = createOllamaModel({ host: 'http://127.0.0.1:11434', model: 'qwen3:4b' });
 * const agent = createAgent({ model, tools: [] });
 */
export function createOllamaModel(options: OllamaModelOptions): OllamaChatModel {
  const host = options.host ?? DEFAULT_OLLAMA_HOST;
  const name = options.model;
  const defaultTimeoutMs =
    options.firstTokenTimeoutMs ?? options.requestTimeoutMs ?? AGENT_DEFAULTS.firstTokenTimeoutMs;
  const defaultBetweenMs = options.betweenTokensTimeoutMs ?? AGENT_DEFAULTS.betweenTokensTimeoutMs;
  const now = options.now ?? Date.now;
  // When each model was last known to be loaded: a reply, or `/api/ps` listing it.
  const seenLoaded = new Map<string, number>();
  const known = new Map<string, ModelCapabilities>();
  // Idle clients (with the messages each sent last), reused by later requests; requests running
  // at once each take their own.
  const idle: Array<{ session: OllamaSession; sent: Sent[] }> = [];

  async function send(request: ChatRequest): Promise<ChatReply> {
    const slot = idle.pop() ?? { session: createOllamaSession(host), sent: [] };
    const { session } = slot;
    try {
      const params: ChatParams = {
        host,
        model: request.model ?? name,
        messages: toOllamaMessages(request.messages, slot.sent),
        signal: request.signal,
        firstTokenTimeoutMs: request.firstTokenTimeoutMs ?? request.timeoutMs ?? defaultTimeoutMs,
        betweenTokensTimeoutMs: request.betweenTokensTimeoutMs ?? defaultBetweenMs,
        keepAlive: options.keepAlive,
        session,
      };
      if (request.tools && request.tools.length > 0) params.tools = toOllamaTools(request.tools);
      if (request.contextLength) params.options = { num_ctx: request.contextLength };
      if (request.onToken) params.onToken = request.onToken;
      const reply = await chat(params);
      seenLoaded.set(request.model ?? name, now());
      return {
        content: reply.content,
        toolCalls: reply.toolCalls.map((call) => ({
          name: call.function.name,
          arguments: call.function.arguments ?? {},
        })),
        usage: {
          promptTokens: reply.promptTokens,
          completionTokens: reply.completionTokens,
          durationMs: reply.durationMs,
          tokensPerSecond: reply.tokensPerSecond,
        },
      };
    } finally {
      session.bind(undefined);
      if (idle.length < 4) idle.push(slot);
    }
  }

  async function capabilities(
    asked: { model?: string; signal?: AbortSignal } = {},
  ): Promise<ModelCapabilities> {
    const forModel = asked.model ?? name;
    const cached = known.get(forModel);
    if (cached) return cached;
    const show = await withOllama(
      host,
      { signal: asked.signal, timeoutMs: AGENT_DEFAULTS.quickRequestTimeoutMs },
      (client) => client.show({ model: forModel }),
    );
    const listed = show.capabilities ?? [];
    const found: ModelCapabilities = {
      tools: listed.includes('tools'),
      vision: listed.includes('vision'),
      thinking: listed.includes('thinking'),
      contextLength: contextLength(show.model_info as unknown as Record<string, unknown> | undefined),
    };
    known.set(forModel, found);
    return found;
  }

  async function isLoaded(asked: { model?: string; signal?: AbortSignal } = {}): Promise<boolean | null> {
    const forModel = asked.model ?? name;
    const seen = seenLoaded.get(forModel);
    if (seen !== undefined && now() - seen < AGENT_DEFAULTS.loadedCacheMs) return true;
    const running = await withOllama(
      host,
      { signal: asked.signal, timeoutMs: AGENT_DEFAULTS.quickRequestTimeoutMs },
      (client) => client.ps(),
    );
    const loaded = running.models.some(
      (model) => sameModel(model.name, forModel) || sameModel(model.model, forModel),
    );
    if (loaded) seenLoaded.set(forModel, now());
    return loaded;
  }

  return {
    model: name,
    provider: 'ollama',
    host,
    chat: send,
    capabilities,
    isLoaded,
    describeError: (error, asked) =>
      MacstatsError.isInstance(error) && error.code.startsWith('OLLAMA_')
        ? describeOllamaError(error, {
            host,
            model: asked?.model ?? name,
            timeoutMs: defaultTimeoutMs,
            betweenTokensTimeoutMs: defaultBetweenMs,
            settings: options.settingNames,
          })
        : undefined,
  };
}
