import { describe, expect, it } from 'vitest';
import { MacstatsError } from '../errors.js';
import type { ChatModel, ChatReply, ChatRequest } from './chat-model.js';
import { createModelPool, type PoolMember } from './model-pool.js';

const usage = { promptTokens: 1, completionTokens: 1, durationMs: 1, tokensPerSecond: null };
const reply = (content: string): ChatReply => ({ content, toolCalls: [], usage });
const capabilities = async () => ({ tools: true, vision: false, thinking: false, contextLength: null });

/** A model whose requests wait until the test releases them. */
function heldModel(name: string) {
  const waiting: Array<{ request: ChatRequest; release: (outcome: Error | string) => void }> = [];
  const model: ChatModel = {
    model: 'm:latest',
    capabilities,
    chat: (request) =>
      new Promise((resolve, reject) => {
        waiting.push({
          request,
          release: (outcome) =>
            typeof outcome === 'string' ? resolve(reply(`${name}: ${outcome}`)) : reject(outcome),
        });
      }),
  };
  return { model, waiting };
}

function failingModel(error: Error, tokensFirst = false): ChatModel {
  return {
    model: 'm:latest',
    capabilities,
    chat: async (request) => {
      if (tokensFirst) request.onToken?.('Hel');
      throw error;
    },
  };
}

function answeringModel(name: string, calls: string[]): ChatModel {
  return {
    model: 'm:latest',
    capabilities,
    chat: async () => {
      calls.push(name);
      return reply(name);
    },
  };
}

const question = { messages: [{ role: 'user' as const, content: 'hi' }] };
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('createModelPool', () => {
  it('sends each request to the member with the fewest requests in flight', async () => {
    const a = heldModel('a');
    const b = heldModel('b');
    const pool = createModelPool({ members: [a.model, b.model] });
    const answers = [pool.chat(question), pool.chat(question), pool.chat(question)];
    await flush();
    expect([a.waiting.length, b.waiting.length]).toEqual([2, 1]);
    b.waiting[0]?.release('one');
    await answers[1];
    const fourth = pool.chat(question);
    await flush();
    // b had nothing left in flight, a still two.
    expect([a.waiting.length, b.waiting.length]).toEqual([2, 2]);
    for (const entry of [...a.waiting, ...b.waiting.slice(1)]) entry.release('x');
    await Promise.all([...answers, fourth]);
    pool.close();
  });

  it('prefers a member where the model is already loaded', async () => {
    const calls: string[] = [];
    const status = (loaded: string[]) => async () => ({ models: ['m:latest'], loaded });
    const members: PoolMember[] = [
      { name: 'cold', model: answeringModel('cold', calls), status: status([]) },
      { name: 'warm', model: answeringModel('warm', calls), status: status(['m:latest']) },
    ];
    const pool = createModelPool({ members });
    await pool.checkHealth();
    await pool.chat(question);
    await pool.chat(question);
    expect(calls).toEqual(['warm', 'warm']);
    pool.close();
  });

  it('skips a member that does not have the model', async () => {
    const calls: string[] = [];
    const pool = createModelPool({
      members: [
        {
          name: 'other',
          model: answeringModel('other', calls),
          status: async () => ({ models: ['x:1b'], loaded: [] }),
        },
        {
          name: 'has',
          model: answeringModel('has', calls),
          status: async () => ({ models: ['m'], loaded: [] }),
        },
      ],
    });
    await pool.checkHealth();
    await pool.chat(question);
    await pool.chat(question);
    expect(calls).toEqual(['has', 'has']);
    pool.close();
  });

  it('retries once on another member when one fails before the first token, and routes around it', async () => {
    const calls: string[] = [];
    const pool = createModelPool({
      members: [failingModel(new Error('connect ECONNREFUSED')), answeringModel('b', calls)],
    });
    expect((await pool.chat(question)).content).toBe('b');
    expect(pool.members().map((member) => member.healthy)).toEqual([false, true]);
    expect((await pool.chat(question)).content).toBe('b');
    pool.close();
  });

  it('gives up after one retry, with the last error', async () => {
    const pool = createModelPool({
      members: [
        failingModel(new Error('first down')),
        failingModel(new Error('second down')),
        answeringModel('c', []),
      ],
    });
    await expect(pool.chat(question)).rejects.toThrow('second down');
    pool.close();
  });

  it('does not retry once tokens were streamed, so the user never sees a reply start twice', async () => {
    const calls: string[] = [];
    const pool = createModelPool({
      members: [failingModel(new Error('cut'), true), answeringModel('b', calls)],
    });
    const tokens: string[] = [];
    await expect(pool.chat({ ...question, onToken: (text) => tokens.push(text) })).rejects.toThrow('cut');
    expect(tokens).toEqual(['Hel']);
    expect(calls).toEqual([]);
    pool.close();
  });

  it("does not retry the caller's abort or a refusal of native tools", async () => {
    const calls: string[] = [];
    const refusal = new MacstatsError('OLLAMA_TOOLS_UNSUPPORTED', 'm does not support tools', {
      unsupported: 'tools',
    });
    const refusing = createModelPool({ members: [failingModel(refusal), answeringModel('b', calls)] });
    await expect(refusing.chat(question)).rejects.toBe(refusal);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const aborting = createModelPool({
      members: [failingModel(new Error('stop')), answeringModel('b', calls)],
    });
    await expect(aborting.chat({ ...question, signal: controller.signal })).rejects.toThrow('stop');
    expect(calls).toEqual([]);
    refusing.close();
    aborting.close();
  });

  it('takes a member back once its status check succeeds again', async () => {
    let up = false;
    const calls: string[] = [];
    const flaky: PoolMember = {
      name: 'flaky',
      model: answeringModel('flaky', calls),
      status: async () => {
        if (!up) throw new Error('down');
        return { models: ['m:latest'], loaded: [] };
      },
    };
    const pool = createModelPool({ members: [flaky, answeringModel('steady', calls)] });
    await pool.checkHealth();
    expect(pool.members()[0]?.healthy).toBe(false);
    await pool.chat(question);
    up = true;
    await pool.checkHealth();
    expect(pool.members()[0]?.healthy).toBe(true);
    await pool.chat(question);
    expect(calls).toEqual(['steady', 'flaky']);
    pool.close();
  });

  it('logs nothing once closed, even for a status check that was under way', async () => {
    let fail: (error: Error) => void = () => {};
    const slow: PoolMember = {
      name: 'slow',
      model: answeringModel('slow', []),
      status: () =>
        new Promise((_, reject) => {
          fail = reject;
        }),
    };
    const logged: string[] = [];
    const record = (_data: unknown, message?: string) => void logged.push(message ?? '');
    const logger = { debug: record, info: record, warn: record, error: record };
    const pool = createModelPool({ members: [slow], logger });
    const checking = pool.checkHealth();
    pool.close();
    fail(new Error('connection refused'));
    await checking;
    expect(pool.members()[0]?.healthy).toBe(false);
    expect(logged).toEqual([]);
  });
});
