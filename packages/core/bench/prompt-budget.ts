import { ContextWindow } from '../src/agent/context-window.js';
import { AGENT_DEFAULTS } from '../src/defaults.js';
import type { ModelMessage, ModelToolDefinition } from '../src/model/chat-model.js';
import { median } from './bench-tools.js';

/** Cost of fitting one request's prompt in the window, against serialising the same messages. */
export interface PromptBudgetCost {
  messages: number;
  /** Median time of one `plan` (estimate, drop old turns, shorten tool outputs, size num_ctx). */
  budgetMs: number;
  /** Median time of `JSON.stringify` of the same messages: the floor any client pays to send them. */
  stringifyMs: number;
  /** What fitting took: history messages left out, tool outputs shortened. */
  dropped: number;
  shortened: number;
}

/** A 40-turn conversation with long answers, then a question whose answer read two large tool outputs. */
function fortyTurns(): { messages: ModelMessage[]; tools: ModelToolDefinition[]; questionIndex: number } {
  const history = Array.from({ length: 40 }, (_, turn) => [
    {
      role: 'user' as const,
      content: `Question ${turn}: what changed in the logs since yesterday? `.repeat(3),
    },
    { role: 'assistant' as const, content: `Answer ${turn}: the logs show nothing unusual. `.repeat(30) },
  ]).flat();
  const output = (name: string) =>
    Array.from({ length: 300 }, (_, line) => `${name} line ${line}: disk ok, cpu ok, nothing new.`).join(
      '\n',
    );
  const messages: ModelMessage[] = [
    { role: 'system', content: 'You are a helpful assistant. '.repeat(60) },
    { role: 'system', content: 'Now: Monday 09:00. Summary: the user watches the logs.' },
    ...history,
    { role: 'user', content: 'Anything new today?' },
    { role: 'assistant', content: '', toolCalls: [{ name: 'READ_LOG', arguments: { argument: 'syslog' } }] },
    { role: 'tool', toolName: 'READ_LOG', content: output('syslog') },
    { role: 'assistant', content: '', toolCalls: [{ name: 'READ_LOG', arguments: { argument: 'auth' } }] },
    { role: 'tool', toolName: 'READ_LOG', content: output('auth') },
  ];
  const tools = [
    {
      name: 'READ_LOG',
      description: 'Reads a log.',
      parameters: { type: 'object', properties: { argument: { type: 'string' } } },
    },
  ];
  return { messages, tools, questionIndex: 2 + history.length };
}

/** Times `plan` over a 40-turn history against `JSON.stringify` of the same messages, in this run. */
export function measurePromptBudget(rounds = 2000): PromptBudgetCost {
  const { messages, tools, questionIndex } = fortyTurns();
  const settings = { ...AGENT_DEFAULTS.context, maxContextLength: 16384 };
  const layout = { fixedCount: 2, questionIndex };
  const budget: number[] = [];
  const stringify: number[] = [];
  let sink = 0;
  let last = { droppedMessages: 0, shortenedMessages: 0 };
  for (let round = 0; round < rounds; round++) {
    // A fresh window each round, as each answer's first request is planned without history of its own.
    const window = new ContextWindow(settings, 32768);
    let started = performance.now();
    const plan = window.plan(messages, tools, layout);
    budget.push(performance.now() - started);
    started = performance.now();
    sink += JSON.stringify(messages).length;
    stringify.push(performance.now() - started);
    last = plan;
  }
  if (sink === 0) throw new Error('the bench measured nothing');
  return {
    messages: messages.length,
    budgetMs: median(budget),
    stringifyMs: median(stringify),
    dropped: last.droppedMessages,
    shortened: last.shortenedMessages,
  };
}
