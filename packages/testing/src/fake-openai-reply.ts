import type { ServerResponse } from 'node:http';
import type { FakeOpenAiChatRequest, FakeOpenAiReply } from './fake-openai-types.js';
import { sendJson, sleep } from './http-helpers.js';

export type ScriptedOpenAiReply = Exclude<FakeOpenAiReply, string>;

/** The fake's stock answer when nothing is scripted. */
export const STOCK_OPENAI_REPLY = 'This is the fake OpenAI-compatible server answering.';

/** An OpenAI-style error body. */
export function sendOpenAiError(
  response: ServerResponse,
  status: number,
  message: string,
  type: string,
): void {
  sendJson(response, status, { error: { message, type, code: status } });
}

function countWords(messages: FakeOpenAiChatRequest['messages']): number {
  let words = 0;
  for (const message of messages) {
    const text =
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '');
    words += text.split(/\s+/).filter(Boolean).length;
  }
  return Math.max(1, words);
}

function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces.length > 0 ? pieces : [''];
}

/** Writes one scripted reply, streamed as server-sent events or as one JSON body. */
export async function writeOpenAiReply(
  response: ServerResponse,
  body: FakeOpenAiChatRequest,
  reply: ScriptedOpenAiReply,
  id: string,
): Promise<void> {
  const errorMessage = reply.errorMessage ?? 'an internal error occurred in the fake server';
  if (reply.fault === 'hang') return; // the socket stays open until the client or close() ends it
  if (reply.fault === 'http-500') {
    sendOpenAiError(response, 500, errorMessage, 'server_error');
    return;
  }
  const calls = (reply.toolCalls ?? []).map((call, index) => ({
    id: `call_${id}_${index}`,
    name: call.name,
    arguments: JSON.stringify(call.arguments ?? {}),
  }));
  const content = reply.content ?? (calls.length > 0 ? '' : STOCK_OPENAI_REPLY);
  const chunks = reply.chunks ?? content.match(/\S+\s*|\s+/g) ?? [];
  const finishReason = reply.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
  const usage = {
    prompt_tokens: reply.promptTokens ?? countWords(body.messages),
    completion_tokens: reply.completionTokens ?? Math.max(1, chunks.length),
    total_tokens: 0,
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const created = Math.floor(Date.now() / 1000);
  const head = { id: `chatcmpl-${id}`, created, model: body.model, system_fingerprint: 'fake' };

  if (body.stream !== true) {
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: calls.length > 0 && content === '' ? null : content,
    };
    if (calls.length > 0)
      message.tool_calls = calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }));
    const text = JSON.stringify({
      ...head,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
      usage,
    });
    response.writeHead(200, { 'content-type': 'application/json' });
    if (reply.fault === 'malformed-chunk') response.end('{"id": "chatcmpl", "choices": [oops');
    else if (reply.fault === 'cut-stream' || reply.fault === 'stall') {
      response.write(text.slice(0, Math.floor(text.length / 2)));
      if (reply.fault === 'cut-stream') response.destroy();
    } else if (reply.fault === 'error-event') sendOpenAiError(response, 500, errorMessage, 'server_error');
    else response.end(text);
    return;
  }

  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (data: unknown) => response.write(`data: ${JSON.stringify(data)}\n\n`);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    send({
      ...head,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    });
  const events: Array<() => void> = [() => chunk({ role: 'assistant', content: '' })];
  for (const piece of chunks) events.push(() => chunk({ content: piece }));
  calls.forEach((call, index) => {
    events.push(() =>
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
      }),
    );
    for (const piece of split(call.arguments, reply.argumentFragmentChars ?? 8))
      events.push(() => chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(() => chunk({}, finishReason));
  if (body.stream_options?.include_usage)
    events.push(() => send({ ...head, object: 'chat.completion.chunk', choices: [], usage }));

  let sent = 0;
  for (const event of events) {
    if (response.destroyed) return;
    event();
    sent++;
    if (sent === 2 && reply.fault) {
      switch (reply.fault) {
        case 'cut-stream':
          // Once the chunks so far are on the wire, so the client sees a reply start and then stop.
          await new Promise<void>((resolve) => response.write('', () => resolve()));
          response.destroy();
          return;
        case 'malformed-chunk':
          response.write('data: {"id": this is not json\n\n');
          break;
        case 'error-event':
          send({ error: { message: errorMessage, type: 'server_error', code: 500 } });
          response.end();
          return;
        case 'stall':
          return; // silent until the client gives up or close() ends it
      }
    }
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
  }
  response.write('data: [DONE]\n\n');
  response.end();
}
