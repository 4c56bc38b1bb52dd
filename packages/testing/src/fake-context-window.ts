import type { FakeChatRequest, FakeOllamaModel, FakePromptRecord } from './fake-ollama-types.js';

/** The fake's tokenizer: three characters a token, plus four per message for the template. */
function tokens(text: string): number {
  return Math.ceil(text.length / 3);
}

function messageTokens(message: FakeChatRequest['messages'][number]): number {
  return tokens(String(message.content ?? '')) + tokens(JSON.stringify(message.tool_calls ?? '')) + 4;
}

/**
 * Fits a chat request in the model's window the way Ollama does: when the prompt is longer than
 * `num_ctx`, the FRONT goes (the tool definitions rendered first, then the oldest messages, the
 * last one cut at its start) and only the rest is read.
 */
export function fitInWindow(
  body: FakeChatRequest,
  model: FakeOllamaModel,
  defaultContextLength: number,
  previous?: FakeChatRequest,
): { request: FakeChatRequest; record: FakePromptRecord } {
  const toolTokens = body.tools && body.tools.length > 0 ? tokens(JSON.stringify(body.tools)) : 0;
  const costs = body.messages.map(messageTokens);
  const total = toolTokens + costs.reduce((sum, cost) => sum + cost, 0);
  const limit = model.servedContextLength ?? model.contextLength;
  if (limit === undefined) {
    const record = {
      tokens: total,
      kept: total,
      evaluated: total,
      window: null,
      cut: false,
      toolsKept: true,
      messages: body.messages,
    };
    return { request: body, record };
  }
  const requested = typeof body.options?.num_ctx === 'number' ? body.options.num_ctx : defaultContextLength;
  const window = Math.min(requested, limit);
  if (total <= window) {
    // Like Ollama, count only what the model's cache did not hold: the prefix shared with the
    // previous request (tools, then whole messages) is not evaluated again.
    const evaluated = total - cachedTokens(body, previous, toolTokens, costs);
    const record = {
      tokens: total,
      kept: total,
      evaluated,
      window,
      cut: false,
      toolsKept: true,
      messages: body.messages,
    };
    return { request: body, record };
  }
  let over = total - window;
  let toolsKept = true;
  if (toolTokens > 0) {
    toolsKept = false;
    over -= toolTokens;
  }
  const messages = [...body.messages];
  while (over > 0 && messages.length > 0) {
    const first = messages[0] as FakeChatRequest['messages'][number];
    const cost = messageTokens(first);
    if (cost <= over) {
      messages.shift();
      over -= cost;
      continue;
    }
    const content = String(first.content ?? '');
    messages[0] = { ...first, content: content.slice(Math.min(content.length, over * 3)) };
    over = 0;
  }
  const request: FakeChatRequest = { ...body, messages };
  if (!toolsKept) delete request.tools;
  // What was kept fills the window.
  return {
    request,
    record: { tokens: total, kept: window, evaluated: window, window, cut: true, toolsKept, messages },
  };
}

function cachedTokens(
  body: FakeChatRequest,
  previous: FakeChatRequest | undefined,
  toolTokens: number,
  costs: number[],
): number {
  if (!previous || JSON.stringify(previous.tools ?? null) !== JSON.stringify(body.tools ?? null)) return 0;
  let cached = toolTokens;
  for (const [index, message] of body.messages.entries()) {
    const before = previous.messages[index];
    if (!before || JSON.stringify(before) !== JSON.stringify(message)) break;
    cached += costs[index] ?? 0;
  }
  return cached;
}
