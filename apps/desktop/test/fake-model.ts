import type { FakeChatRequest, FakeOllamaReply } from '@macstats/testing';

/** Splits a reply into word chunks, so the page receives it token by token. */
export function wordChunks(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}

/**
 * A scripted model for the dashboard tests, answering from the request rather than a queue so
 * background calls (summaries) cannot shift the script:
 * - after a tool result: "The tool said: <result>", streamed word by word;
 * - "run this JavaScript: <code>": a RUN_JS call with that code;
 * - a question about the CPU: a METRICS call;
 * - a question with "slowly": a reply that starts after 3 s;
 * - a question with "the model breaks": HTTP 500, as Ollama answers when its runner dies;
 * - anything else: a stock sentence.
 */
export function fakeModel(request: FakeChatRequest): FakeOllamaReply {
  const messages = request.messages;
  const last = messages[messages.length - 1];
  if (!request.tools || request.tools.length === 0) return 'A short summary of the conversation.';
  if (last?.role === 'tool') {
    const text = `The tool said: ${last.content.replace(/\s+/g, ' ').slice(0, 400)}`;
    return { content: text, chunks: wordChunks(text), chunkDelayMs: 40 };
  }
  const question = last?.content ?? '';
  if (/\bslowly\b/i.test(question)) return { content: 'A slow answer.', delayMs: 3000 };
  if (/the model breaks/i.test(question))
    return { fault: 'http-500', errorMessage: 'llama runner process has terminated' };
  const code = /run this JavaScript: (.*)$/s.exec(question)?.[1];
  if (code !== undefined) return { toolCalls: [{ name: 'RUN_JS', arguments: { argument: code.trim() } }] };
  if (/\bcpu\b/i.test(question)) return { toolCalls: [{ name: 'METRICS', arguments: { section: 'cpu' } }] };
  return 'Hello from the fake model.';
}

/** The text of the tool message the model received last, if any. */
export function lastToolResult(requests: readonly FakeChatRequest[]): string | undefined {
  for (const request of [...requests].reverse()) {
    const tool = [...request.messages].reverse().find((message) => message.role === 'tool');
    if (tool) return tool.content;
  }
  return undefined;
}

/**
 * {@link fakeModel} with a gate: a question containing "wait for the gate" is answered only
 * once the gate is open. The gate starts open; `close()` shuts it until `open()`.
 */
export function gatedFakeModel() {
  let release: () => void = () => {};
  let gate = Promise.resolve();
  return {
    async reply(request: FakeChatRequest): Promise<FakeOllamaReply> {
      const last = request.messages[request.messages.length - 1];
      if (last?.role === 'user' && last.content.includes('wait for the gate')) await gate;
      return fakeModel(request);
    },
    open: () => release(),
    close() {
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
  };
}
