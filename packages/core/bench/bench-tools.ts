import type { FakeChatRequest, FakeOllamaReply } from '@macstats/testing';
import type { Tool } from '../src/index.js';

/** The page the bench's FETCH_URL returns: a few kilobytes, like a small readable page. */
export const PAGE_TEXT =
  'Example Domain. This domain is for use in illustrative examples in documents. '.repeat(40);

/** An in-process FETCH_URL so only the loop is measured, not the network. */
export const benchFetchTool: Tool = {
  name: 'FETCH_URL',
  description: "Fetch a web page's body as text.",
  usage: 'FETCH_URL: <full URL>',
  // As the real FETCH_URL declares them, so the containment stage is measured too.
  labels: (call) => ({ outside: true, sendsTo: call.argument }),
  run: async () => PAGE_TEXT,
};

/** True once the request carries a tool result: time to answer. */
export function hasToolResult(request: FakeChatRequest): boolean {
  const last = request.messages[request.messages.length - 1];
  return last?.role === 'tool' || (last?.content ?? '').includes('<tool_output');
}

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The two-call turn: a native FETCH_URL call, then the answer once the result is in. */
export function benchReply(request: FakeChatRequest): FakeOllamaReply {
  return hasToolResult(request)
    ? 'Here is what the page says: it is a domain for illustrative examples in documents, free to use.'
    : { toolCalls: [{ name: 'FETCH_URL', arguments: { argument: 'https://example.com' } }] };
}
