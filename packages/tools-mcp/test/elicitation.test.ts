import { type ApprovalRequest, createAgent } from '@macstats/core';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMcp,
  createDecliningElicitation,
  type McpConnection,
  type McpElicitation,
} from '../src/index.js';
import { everything, fixture } from './helpers.js';

const server = { command: process.execPath, args: [everything, 'stdio'] };

describe('a server that asks the user a question mid-call (elicitation)', () => {
  it('gets a decline, and the host hears the question and the reason, where nobody can answer', async () => {
    const heard: { question: McpElicitation; reason: string }[] = [];
    const mcp = await connectMcp(server, {
      elicitation: createDecliningElicitation(
        'nobody can answer during a scheduled run',
        (question, reason) => heard.push({ question, reason }),
      ),
    });
    try {
      const result = await mcp.callTool('trigger-elicitation-request', {});
      expect(result.text).toMatch(/decline/i);
      expect(heard).toEqual([
        {
          question: expect.objectContaining({ server: 'mcp', message: expect.any(String) }),
          reason: 'nobody can answer during a scheduled run',
        },
      ]);
    } finally {
      await mcp.close();
    }
  });

  it('reaches a handler that answers for the user', async () => {
    const mcp = await connectMcp(server, {
      elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    try {
      const result = await mcp.callTool('trigger-elicitation-request', {});
      expect(result.text).toMatch(/accept/i);
    } finally {
      await mcp.close();
    }
  });

  it('is not offered to servers when the host gives no handler', async () => {
    const mcp = await connectMcp(server);
    try {
      expect(mcp.tools.map((tool) => tool.name)).not.toContain('trigger-elicitation-request');
    } finally {
      await mcp.close();
    }
  });
});

describe('a server question put to the user through the approval surface', () => {
  const asking = { command: process.execPath, args: [fixture('asking-server.mjs')] };
  let mcp: McpConnection;
  let fake: FakeOllama | undefined;
  beforeAll(async () => {
    // Trusted: these tests are about the server's questions, not containment's approval of its
    // un-annotated (so persisting) tools, which an untrusted server's descriptions would ask for.
    mcp = await connectMcp(asking, {
      name: 'shop',
      trust: true,
      elicitation: createDecliningElicitation('nobody asked'),
    });
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  afterAll(async () => {
    await mcp?.close();
  });

  async function answerWith(call: string, approve: (request: ApprovalRequest) => Promise<boolean>) {
    fake = await startFakeOllama({ replies: [call, 'Done.'] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [mcp.tool],
      memory: false,
      approve,
    });
    const answer = await agent.answer('Clean up my drafts.');
    return answer.toolCalls[0]?.result.text ?? '';
  }

  it('asks the asker, with the server named and its words quoted, and a yes confirms', async () => {
    const asked: ApprovalRequest[] = [];
    const text = await answerWith('MCP: delete-drafts {}', async (request) => {
      asked.push(request);
      return true;
    });
    expect(text).toContain('accept {"confirm":true}');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.reason).toContain('MCP server "shop" asks you a question');
    expect(asked[0]?.reason).toContain('"Delete all 3 drafts?"');
  });

  it('declines when the asker says no', async () => {
    const text = await answerWith('MCP: delete-drafts {}', async () => false);
    expect(text).toContain('decline');
  });

  it('answers a form with its defaults, shown in the question', async () => {
    let reason = '';
    const text = await answerWith('MCP: order-coffee {}', async (request) => {
      reason = request.reason;
      return true;
    });
    expect(text).toContain('accept {"size":"large","sugar":0}');
    expect(reason).toContain('size = "large", sugar = 0');
  });

  it('declines a form that needs typing, without asking', async () => {
    let asked = 0;
    const text = await answerWith('MCP: register {}', async () => {
      asked += 1;
      return true;
    });
    expect(text).toContain('decline');
    expect(asked).toBe(0);
  });

  it("gives questions to the connection's handler when two calls are under way", async () => {
    // Each call lends its own handler; the same function lent twice is still two calls.
    const yes = async () => ({ action: 'accept' as const, content: { confirm: true } });
    const [first, second] = await Promise.all([
      mcp.callTool('delete-drafts', {}, { elicitation: yes }),
      mcp.callTool('delete-drafts', {}, { elicitation: yes }),
    ]);
    expect([first.text, second.text]).toEqual([
      expect.stringContaining('decline'),
      expect.stringContaining('decline'),
    ]);
    expect((await mcp.callTool('delete-drafts', {}, { elicitation: yes })).text).toContain('accept');
  });
});
