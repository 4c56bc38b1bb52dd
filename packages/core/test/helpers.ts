import type { FakeChatRequest } from '@macstats/testing';
import {
  type ChatModel,
  type ChatReply,
  type ChatRequest,
  createAgent,
  type Logger,
  type ModelCapabilities,
  type ModelToolCall,
  type Tool,
  type ToolContext,
  type ToolResult,
} from '../src/index.js';

/**
 * A tool that records its calls and answers from a function (default: "<NAME> result for
 * <argument>"). It declares empty containment labels (reads nothing outside or private, neither
 * sends nor persists), so the loop's other guards are tested alone; containment has its own tests.
 */
export function recordingTool(
  name: string,
  respond: (argument: string, context: ToolContext) => string | ToolResult | Promise<string | ToolResult> = (
    argument,
  ) => `${name} result for ${argument}`,
): Tool & { calls: string[]; contexts: ToolContext[] } {
  const calls: string[] = [];
  const contexts: ToolContext[] = [];
  return {
    name,
    description: `The ${name.toLowerCase()} tool.`,
    usage: `${name}: <argument>`,
    labels: {},
    calls,
    contexts,
    async run(argument, context) {
      calls.push(argument);
      contexts.push(context);
      return respond(argument, context);
    },
  };
}

/** An agent on the text protocol (gemma2 has no native tools in the fake), without memory. */
export function textAgent(host: string, tools: Tool[], maxToolIterations?: number) {
  return createAgent({
    ollama: { host, model: 'gemma2:2b' },
    tools,
    memory: false,
    ...(maxToolIterations ? { maxToolIterations } : {}),
  });
}

/** All message contents of a request, joined: what the model read. */
export function promptText(request: FakeChatRequest | undefined): string {
  return (request?.messages ?? []).map((message) => `${message.role}: ${message.content}`).join('\n');
}

/** The last message of a request. */
export function lastMessage(request: FakeChatRequest | undefined) {
  const messages = request?.messages ?? [];
  return messages[messages.length - 1];
}

/** A logger that keeps what it was told. */
export function memoryLogger(): Logger & {
  entries: Array<{ level: string; details: object; message?: string }>;
} {
  const entries: Array<{ level: string; details: object; message?: string }> = [];
  const at =
    (level: string) =>
    (details: object, message?: string): void => {
      entries.push(message === undefined ? { level, details } : { level, details, message });
    };
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Resolves once `check` is true, polling the event loop (no wall-clock thresholds). */
export async function until(check: () => boolean, rounds = 2000): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('condition never became true');
}

/** A model written by hand: scripted replies, the requests it saw, no server anywhere. */
export function scriptedModel(
  replies: Array<string | ModelToolCall[] | Error>,
  capabilities: ModelCapabilities = { tools: false, vision: false, thinking: false, contextLength: null },
): ChatModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    model: 'hand-written',
    requests,
    async chat(request) {
      requests.push({ ...request, messages: [...request.messages] });
      const next = replies.shift() ?? 'Done.';
      if (next instanceof Error) throw next;
      const reply: ChatReply = {
        content: typeof next === 'string' ? next : '',
        toolCalls: typeof next === 'string' ? [] : next,
        usage: { promptTokens: 10, completionTokens: 5, durationMs: 2, tokensPerSecond: 100 },
      };
      return reply;
    },
    async capabilities() {
      return capabilities;
    },
  };
}
