import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeChatRequest, FakeOllamaReply } from './fake-ollama-types.js';
import { sendJson, sleep } from './http-helpers.js';

/** What the fake answers when nothing was scripted. */
export const STOCK_REPLY = 'This is the fake Ollama answering.';

/** A reply as the fake plays it (a bare string is `{ content }`). */
export type ScriptedReply = Exclude<FakeOllamaReply, string>;

function countWords(messages: FakeChatRequest['messages']): number {
  let words = 0;
  for (const message of messages)
    words += String(message.content ?? '')
      .split(/\s+/)
      .filter(Boolean).length;
  return Math.max(1, words);
}

function splitIntoChunks(content: string): string[] {
  if (content === '') return [];
  return content.match(/\S+\s*|\s+/g) ?? [content];
}

/** Writes one scripted reply as Ollama would: whole or streamed, with its fault if it has one. */
export async function writeReply(
  request: IncomingMessage,
  response: ServerResponse,
  body: FakeChatRequest,
  modelName: string,
  reply: ScriptedReply,
) {
  const errorMessage = reply.errorMessage ?? 'an internal error occurred in the fake Ollama';
  switch (reply.fault) {
    case 'hang':
      return; // the socket stays open until the client or close() ends it
    case 'reset':
      request.socket.resetAndDestroy();
      return;
    case 'http-500':
      sendJson(response, 500, { error: errorMessage });
      return;
    case 'model-not-found':
      sendJson(response, 404, { error: `model "${body.model}" not found, try pulling it first` });
      return;
  }

  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    function: { name: call.name, arguments: call.arguments ?? {} },
  }));
  const content = reply.content ?? (toolCalls.length > 0 ? '' : STOCK_REPLY);
  const chunks = reply.chunks ?? splitIntoChunks(content);
  const evalCount = reply.evalCount ?? Math.max(1, chunks.length);
  const evalDurationNs = Math.round((reply.evalDurationMs ?? Math.max(1, evalCount)) * 1e6);
  const promptEvalCount = reply.promptEvalCount ?? countWords(body.messages);
  const stats = {
    done_reason: reply.doneReason ?? 'stop',
    total_duration: evalDurationNs + 2_000_000,
    load_duration: 1_000_000,
    prompt_eval_count: promptEvalCount,
    prompt_eval_duration: 1_000_000,
    eval_count: evalCount,
    eval_duration: evalDurationNs,
  };
  const base = () => ({ model: modelName, created_at: new Date().toISOString() });

  if (body.stream === false) {
    if (reply.fault === 'stall') return; // a whole reply that never comes: the same as hang
    const message: Record<string, unknown> = { role: 'assistant', content };
    if (reply.thinking) message.thinking = reply.thinking;
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    const text = JSON.stringify({ ...base(), message, done: true, ...stats });
    if (reply.fault === 'malformed-line') {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.end(`{"model": "${modelName}", "message": {oops`);
      return;
    }
    if (reply.fault === 'cut-stream') {
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(text.length),
      });
      response.write(text.slice(0, Math.floor(text.length / 2)));
      setTimeout(() => response.destroy(), 5);
      return;
    }
    if (reply.fault === 'error-line') {
      sendJson(response, 500, { error: errorMessage });
      return;
    }
    sendJson(response, 200, JSON.parse(text));
    return;
  }

  response.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const writeLine = (value: unknown) => response.write(`${JSON.stringify(value)}\n`);
  if (reply.thinking)
    writeLine({
      ...base(),
      message: { role: 'assistant', content: '', thinking: reply.thinking },
      done: false,
    });
  let sent = 0;
  for (const chunk of chunks) {
    if (response.destroyed) return;
    writeLine({ ...base(), message: { role: 'assistant', content: chunk }, done: false });
    sent++;
    if (reply.fault === 'malformed-line' && sent === 1) {
      response.write('{"model": this is not json\n');
    }
    if (reply.fault === 'stall' && sent === 1) return; // silent until the client gives up
    if (reply.fault === 'error-line' && sent === 1) {
      writeLine({ error: errorMessage });
      response.end();
      return;
    }
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
  }
  if (reply.fault === 'malformed-line' && sent === 0) response.write('{"model": this is not json\n');
  if (reply.fault === 'error-line' && sent === 0) {
    writeLine({ error: errorMessage });
    response.end();
    return;
  }
  if (toolCalls.length > 0) {
    writeLine({
      ...base(),
      message: { role: 'assistant', content: '', tool_calls: toolCalls },
      done: false,
    });
  }
  if (reply.fault === 'cut-stream') {
    // End the body cleanly but without the final line: the client must notice.
    response.end();
    return;
  }
  writeLine({ ...base(), message: { role: 'assistant', content: '' }, done: true, ...stats });
  response.end();
}
