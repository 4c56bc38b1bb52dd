import { randomUUID } from 'node:crypto';
import { RUN_JS_UNAVAILABLE } from '@macstats/app-runtime';
import type { Tool, ToolResult } from '@macstats/core';
import type { EventHub } from './event-hub.js';

/** Options of {@link createRunJsBridge}. */
export interface RunJsBridgeOptions {
  hub: EventHub;
  /** The page that asked in this conversation, if it is known. */
  clientFor?: (conversationId: string | undefined) => string | undefined;
  /** How long the page's worker may run the code. Default 5000 ms. */
  workerTimeoutMs?: number;
  /** Extra time for the page to send the result back. Default 5000 ms. */
  graceMs?: number;
  /** Longest result text handed to the model. Default 20 000 characters. */
  maxResultChars?: number;
}

/** Defaults of {@link RunJsBridgeOptions}. */
export const RUN_JS_DEFAULTS = { workerTimeoutMs: 5000, graceMs: 5000, maxResultChars: 20_000 } as const;

/** The RUN_JS tool plus the door the page's results come back through. */
export interface RunJsBridge {
  tool: Tool;
  /** Delivers a page's result for a call; false when no call waits under that id. */
  resolve(callId: string, clientId: string, result: ToolResult): boolean;
  /** Fails every waiting call (shutdown). */
  cancelAll(): void;
}

interface Pending {
  clientId: string;
  finish(result: ToolResult): void;
}

/**
 * Creates RUN_JS: the code is sent to a dashboard page over the live stream, run there in a
 * sandboxed Worker with a time limit, and the page posts the result back by call id.
 */
export function createRunJsBridge(options: RunJsBridgeOptions): RunJsBridge {
  const workerTimeoutMs = options.workerTimeoutMs ?? RUN_JS_DEFAULTS.workerTimeoutMs;
  const graceMs = options.graceMs ?? RUN_JS_DEFAULTS.graceMs;
  const maxResultChars = options.maxResultChars ?? RUN_JS_DEFAULTS.maxResultChars;
  const pending = new Map<string, Pending>();
  const { hub } = options;

  const tool: Tool = {
    name: 'RUN_JS',
    description:
      'Run JavaScript in the dashboard page (a sandbox without network or DOM) and read its result or console output.',
    usage: 'RUN_JS: <JavaScript code>',
    // The sandbox has no network, storage or DOM: the result is only what the model's code computed.
    labels: {},
    run(argument, context) {
      const asked = options.clientFor?.(context.conversationId);
      const clientId = asked !== undefined && hub.has(asked) ? asked : undefined;
      if (clientId === undefined) return Promise.resolve({ text: RUN_JS_UNAVAILABLE, isError: true });
      context.signal.throwIfAborted();
      const callId = randomUUID();
      return new Promise<ToolResult>((resolve, reject) => {
        const timer = setTimeout(() => {
          finish({
            text: `The page did not return a result within ${workerTimeoutMs + graceMs} ms.`,
            isError: true,
          });
        }, workerTimeoutMs + graceMs);
        const onAbort = () => {
          cleanup();
          reject(context.signal.reason);
        };
        const cleanup = () => {
          clearTimeout(timer);
          context.signal.removeEventListener('abort', onAbort);
          pending.delete(callId);
        };
        const finish = (result: ToolResult) => {
          cleanup();
          const text =
            result.text.length > maxResultChars
              ? `${result.text.slice(0, maxResultChars)}\n[truncated at ${maxResultChars} characters]`
              : result.text;
          resolve(result.isError ? { text, isError: true } : { text });
        };
        context.signal.addEventListener('abort', onAbort, { once: true });
        pending.set(callId, { clientId, finish });
        context.onStatus?.('Running JavaScript in the page…');
        if (!hub.sendTo(clientId, 'run-js', { callId, code: argument, timeoutMs: workerTimeoutMs })) {
          finish({ text: RUN_JS_UNAVAILABLE, isError: true });
        }
      });
    },
  };

  return {
    tool,
    resolve(callId, clientId, result) {
      const call = pending.get(callId);
      // Only the page the code was sent to may answer for it.
      if (!call || call.clientId !== clientId) return false;
      call.finish(result);
      return true;
    },
    cancelAll() {
      for (const call of [...pending.values()])
        call.finish({ text: 'The dashboard is shutting down.', isError: true });
    },
  };
}
