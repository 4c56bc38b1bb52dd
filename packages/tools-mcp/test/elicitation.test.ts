import { describe, expect, it } from 'vitest';
import { connectMcp, createDecliningElicitation, type McpElicitation } from '../src/index.js';
import { everything } from './helpers.js';

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
