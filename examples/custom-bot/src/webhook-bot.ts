import { createServer, type Server } from 'node:http';
import type { Agent, AgentEvent } from '@macstats/core';

/** A message as an outgoing-webhook chat platform posts it. */
interface IncomingMessage {
  user: string;
  channel: string;
  text: string;
}

/** Options of {@link startWebhookBot}. */
export interface WebhookBotOptions {
  agent: Agent;
  /** Port to listen on, on 127.0.0.1. */
  port: number;
  /** Extra instructions per channel, kept in the fixed prompt prefix. */
  channelPrompts?: Record<string, string>;
  /** Where progress goes (tool runs, token rates). */
  onEvent?: (event: AgentEvent) => void;
}

function readBody(request: import('node:http').IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseMessage(text: string): IncomingMessage | null {
  try {
    const value = JSON.parse(text) as Partial<IncomingMessage>;
    return typeof value.user === 'string' &&
      typeof value.channel === 'string' &&
      typeof value.text === 'string'
      ? { user: value.user, channel: value.channel, text: value.text }
      : null;
  } catch {
    return null;
  }
}

/**
 * The adapter between a chat platform's outgoing webhook (`POST /message` with
 * `{ user, channel, text }`) and the agent: one conversation per channel and user, one reply per
 * message, and the request's own abort signal so a client that hangs up cancels the work.
 */
export function startWebhookBot(options: WebhookBotOptions): Promise<Server> {
  const server = createServer(async (request, response) => {
    if (request.method !== 'POST' || request.url !== '/message') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"POST /message"}');
      return;
    }
    const message = parseMessage(await readBody(request));
    if (!message) {
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"error":"send JSON {\\"user\\", \\"channel\\", \\"text\\"}"}');
      return;
    }
    const hangUp = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) hangUp.abort();
    });
    try {
      const extra = options.channelPrompts?.[message.channel];
      const answer = await options.agent.answer(message.text, {
        conversationId: `${message.channel}:${message.user}`,
        signal: hangUp.signal,
        ...(extra ? { systemPromptExtra: extra } : {}),
        ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      });
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify({ text: answer.text, tools: answer.toolCalls.map((call) => call.tool) }));
    } catch {
      // Only an abort rejects: the client is gone, nobody to answer.
      response.destroy();
    }
  });
  return new Promise((resolve) => server.listen(options.port, '127.0.0.1', () => resolve(server)));
}
