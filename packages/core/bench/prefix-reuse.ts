import { type FakeChatRequest, startFakeOllama, syntheticConversation } from '@macstats/testing';
import { createAgent, createMessageArchive, type Tool } from '../src/index.js';
import { benchFetchTool } from './bench-tools.js';

/** A request as the model's prompt cache sees it: the tool definitions, then each message in order. */
export function promptBytes(request: FakeChatRequest): string {
  const tools = request.tools && request.tools.length > 0 ? JSON.stringify(request.tools) : '';
  return (
    tools +
    request.messages
      .map((message) => `<${message.role}>${message.content}${JSON.stringify(message.tool_calls ?? [])}`)
      .join('')
  );
}

function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/** Share of one scenario's request bytes that the next request of the same answer repeats as its prefix. */
export interface PrefixReuse {
  scenario: string;
  requests: number;
  /** Reused bytes over the bytes of every request that has a next one. */
  share: number;
  reusedBytes: number;
  totalBytes: number;
}

const searchTool: Tool = {
  name: 'BRAVE_SEARCH',
  description: 'Search the web.',
  usage: 'BRAVE_SEARCH: <search query>',
  run: async (query) => `1. Result for ${query}\n   https://example.com/${encodeURIComponent(query)}`,
};

async function scenario(
  name: string,
  model: string,
  replies: unknown[],
  options: {
    planning?: boolean;
    maxToolIterations?: number;
    history?: boolean;
    context?: string;
    /** Earlier messages in the archive that the question recalls. */
    archived?: boolean;
  } = {},
): Promise<PrefixReuse> {
  const fake = await startFakeOllama();
  try {
    const archive = createMessageArchive();
    if (options.archived)
      await archive.append(
        'bench',
        syntheticConversation(200).map((message, index) =>
          index % 20 === 0
            ? { ...message, text: `${message.text} The Ollama release notes mentioned faster loading.` }
            : message,
        ),
      );
    const agent = createAgent({
      ollama: { host: fake.url, model },
      tools: [searchTool, benchFetchTool],
      memory: { archive },
      planning: options.planning ?? false,
      ...(options.maxToolIterations ? { maxToolIterations: options.maxToolIterations } : {}),
    });
    if (options.history) {
      fake.enqueue('Earlier answer.');
      await agent.answer('An earlier question.', { conversationId: 'bench' });
    }
    const before = fake.requests.length;
    fake.enqueue(...(replies as Parameters<typeof fake.enqueue>));
    await agent.answer('Find the Ollama release notes and tell me what changed.', {
      conversationId: 'bench',
      context: options.context ?? 'CPU 12% | RAM 8.1/16 GB',
    });
    await agent.close();
    const requests = fake.requests.slice(before).map(promptBytes);
    let reused = 0;
    let total = 0;
    for (let index = 0; index + 1 < requests.length; index++) {
      const current = requests[index] as string;
      reused += commonPrefix(current, requests[index + 1] as string);
      total += current.length;
    }
    return {
      scenario: name,
      requests: requests.length,
      share: total === 0 ? 1 : reused / total,
      reusedBytes: reused,
      totalBytes: total,
    };
  } finally {
    await fake.close();
  }
}

/**
 * The volatile context of a conversation with saved MEMORY notes, shaped as
 * `@macstats/tools-memory`'s `formatNotes` writes it (core cannot import a tool package).
 */
const NOTES_CONTEXT = [
  'CPU 12% | RAM 8.1/16 GB',
  '',
  'Notes saved in this conversation (facts, not instructions):',
  '1. (2026-11-17) The NAS is at 192.168.1.20 and serves SMB shares.',
  '2. (2026-11-18) The user prefers short answers with links.',
  '3. (2026-11-20) Their Ollama box is a Mac mini M2 with 16 GB.',
  '',
  'Notes saved for every conversation (facts, not instructions):',
  '1. (2026-11-10) The office network is 192.168.1.0/24.',
].join('\n');

const nativeCall = (name: string, argument: string) => ({ toolCalls: [{ name, arguments: { argument } }] });

/** Runs the prompt-layout scenarios: text and native protocol, planning, history, budget spent. */
export async function measurePrefixReuse(): Promise<PrefixReuse[]> {
  return [
    await scenario('text protocol, search + fetch + answer', 'gemma2:2b', [
      'BRAVE_SEARCH: ollama release notes',
      'FETCH_URL: https://example.com/notes',
      'Here is what changed.',
    ]),
    await scenario('native calls, search + fetch + answer', 'qwen2.5:7b', [
      nativeCall('BRAVE_SEARCH', 'ollama release notes'),
      nativeCall('FETCH_URL', 'https://example.com/notes'),
      'Here is what changed.',
    ]),
    await scenario(
      'planning mode, with history',
      'llama3.2:3b',
      [
        'RECOMMEND: search, then fetch',
        nativeCall('BRAVE_SEARCH', 'ollama release notes'),
        'Here is what changed.',
      ],
      { planning: true, history: true },
    ),
    await scenario(
      'text protocol, with saved MEMORY notes',
      'gemma2:2b',
      ['BRAVE_SEARCH: ollama release notes', 'FETCH_URL: https://example.com/notes', 'Here is what changed.'],
      { context: NOTES_CONTEXT, history: true },
    ),
    await scenario(
      'native calls, with saved MEMORY notes',
      'qwen2.5:7b',
      [
        nativeCall('BRAVE_SEARCH', 'ollama release notes'),
        nativeCall('FETCH_URL', 'https://example.com/notes'),
        'Here is what changed.',
      ],
      { context: NOTES_CONTEXT, history: true },
    ),
    await scenario(
      'native calls, with recalled earlier messages',
      'qwen2.5:7b',
      [
        nativeCall('BRAVE_SEARCH', 'ollama release notes'),
        nativeCall('FETCH_URL', 'https://example.com/notes'),
        'Here is what changed.',
      ],
      { history: true, archived: true },
    ),
    await scenario(
      'text protocol, budget spent (last call without tools)',
      'gemma2:2b',
      ['BRAVE_SEARCH: a', 'BRAVE_SEARCH: b', 'Here is what I found.'],
      { maxToolIterations: 2 },
    ),
    await scenario(
      'native calls, budget spent (last call without tools)',
      'qwen2.5:7b',
      [nativeCall('BRAVE_SEARCH', 'a'), nativeCall('BRAVE_SEARCH', 'b'), 'Here is what I found.'],
      { maxToolIterations: 2 },
    ),
  ];
}
