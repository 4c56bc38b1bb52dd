import type { ModelMessage, ModelToolDefinition } from '../model/chat-model.js';

/** Characters per token of the estimate: a little under what English takes, so it errs long. */
export const CHARS_PER_TOKEN = 3.5;
/** What a message costs besides its text (role, template markers), in tokens. */
const MESSAGE_OVERHEAD_TOKENS = 4;
/** A shortened tool output keeps at least this many characters. */
const MIN_SHORTENED_CHARS = 400;
/** Said where a tool output was shortened, so the model knows something is missing. */
export const SHORTENED_NOTE = '\n[… cut here to fit the context window …]';

/** Estimated tokens of a text: characters over {@link CHARS_PER_TOKEN}. No tokenizer, no download. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function messageTokens(message: ModelMessage): number {
  let chars = message.content.length;
  if (message.toolCalls)
    for (const call of message.toolCalls)
      chars += call.name.length + JSON.stringify(call.arguments ?? {}).length;
  // An image costs a few hundred tokens in most vision models; count a fixed share.
  return Math.ceil(chars / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD_TOKENS + (message.images?.length ?? 0) * 600;
}

const toolTokenCache = new WeakMap<readonly ModelToolDefinition[], number>();

/** Estimated tokens of native tool definitions (cached per list). */
export function estimateToolTokens(tools: readonly ModelToolDefinition[] | undefined): number {
  if (!tools || tools.length === 0) return 0;
  let cached = toolTokenCache.get(tools);
  if (cached === undefined) {
    cached = estimateTokens(JSON.stringify(tools));
    toolTokenCache.set(tools, cached);
  }
  return cached;
}

/** What {@link budgetMessages} needs to know about the messages. */
export interface BudgetInput {
  messages: readonly ModelMessage[];
  /** Messages before this index are the fixed prefix (system prompt, context with the memory summary): never touched. */
  fixedCount: number;
  /** The current question's index: history lies between the prefix and it; it is never touched. */
  questionIndex: number;
  /** Tokens of the native tool definitions sent with the request. */
  toolTokens: number;
  /** Tokens the prompt may take. */
  budgetTokens: number;
}

/** The messages to send and what fitting them took. */
export interface BudgetResult {
  messages: ModelMessage[];
  /** Estimated prompt tokens of `messages` plus the tool definitions. */
  estimatedTokens: number;
  /** History messages left out, oldest first. */
  droppedMessages: number;
  /** Tool outputs shortened. */
  shortenedMessages: number;
}

/**
 * Fits a prompt in `budgetTokens` without losing what matters: the fixed prefix (system prompt,
 * tool list, context and memory summary) and the current question are never touched. First the
 * oldest history turns go (a user message with its reply), then the longest outputs of this
 * answer's tools are shortened, longest first. Within budget the messages come back as they are,
 * so the prompt prefix the server caches stays byte for byte the same.
 */
export function budgetMessages(input: BudgetInput): BudgetResult {
  const { messages, fixedCount, questionIndex } = input;
  const costs = messages.map(messageTokens);
  let total = input.toolTokens;
  for (const cost of costs) total += cost;
  if (total <= input.budgetTokens)
    return {
      messages: messages as ModelMessage[],
      estimatedTokens: total,
      droppedMessages: 0,
      shortenedMessages: 0,
    };

  // 1. Oldest history first, a whole turn at a time so no reply is left without its question.
  let firstKept = fixedCount;
  while (total > input.budgetTokens && firstKept < questionIndex) {
    total -= costs[firstKept] ?? 0;
    firstKept++;
    // Take the reply with its question: history alternates user, assistant.
    if (firstKept < questionIndex && messages[firstKept]?.role === 'assistant') {
      total -= costs[firstKept] ?? 0;
      firstKept++;
    }
  }
  const kept: ModelMessage[] = [...messages.slice(0, fixedCount), ...messages.slice(firstKept)];
  const keptCosts = [...costs.slice(0, fixedCount), ...costs.slice(firstKept)];
  const question = fixedCount + (questionIndex - firstKept);

  // 2. Then this answer's tool outputs (native `tool` messages, or text-protocol results), longest first.
  let shortened = 0;
  if (total > input.budgetTokens) {
    const outputs = kept
      .map((message, index) => ({ message, index }))
      .filter(
        ({ message, index }) => index > question && (message.role === 'tool' || message.role === 'user'),
      )
      .sort((a, b) => b.message.content.length - a.message.content.length);
    for (const { message, index } of outputs) {
      if (total <= input.budgetTokens) break;
      const over = total - input.budgetTokens;
      const keepChars = Math.max(
        MIN_SHORTENED_CHARS,
        message.content.length - Math.ceil(over * CHARS_PER_TOKEN) - SHORTENED_NOTE.length,
      );
      if (keepChars >= message.content.length) continue;
      const content = message.content.slice(0, keepChars) + SHORTENED_NOTE;
      const next = { ...message, content };
      const cost = messageTokens(next);
      total -= (keptCosts[index] ?? 0) - cost;
      keptCosts[index] = cost;
      kept[index] = next;
      shortened++;
    }
  }
  return {
    messages: kept,
    estimatedTokens: total,
    droppedMessages: firstKept - fixedCount,
    shortenedMessages: shortened,
  };
}
