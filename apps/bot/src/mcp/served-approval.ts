import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/**
 * How a served call that needs approval asks the person at the client: an MCP elicitation (a
 * yes/no form the client shows its user), when the client said it takes them; `undefined` when
 * it did not. No answer, a decline, a cancel or a failed request is a denial.
 */
export function approvalFromClient(
  server: Server,
): ((reason: string, signal: AbortSignal) => Promise<boolean>) | undefined {
  if (!server.getClientCapabilities()?.elicitation) return undefined;
  return async (reason, signal) => {
    try {
      const answer = await server.elicitInput(
        {
          mode: 'form',
          message: `macstats asks before it runs this call: ${reason}`,
          requestedSchema: {
            type: 'object',
            properties: { approve: { type: 'boolean', title: 'Run it', default: false } },
            required: ['approve'],
          },
        },
        { signal },
      );
      return answer.action === 'accept' && answer.content?.approve === true;
    } catch {
      return false;
    }
  };
}
