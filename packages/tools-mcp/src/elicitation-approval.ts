import type { ApproveFunction } from '@macstats/core';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import type { McpElicitationHandler } from './elicitation.js';

type Field = { type?: string; default?: unknown; title?: string };

/**
 * The answer a form gets when the user says yes: each field's default, and `true` for a form
 * whose only field is a yes/no question without one (a confirmation). `missing` names the
 * required fields that have neither: such a form needs typing, which an approval cannot carry.
 */
export function formAnswer(schema: ElicitRequestFormParams['requestedSchema']): {
  content: Record<string, string | number | boolean | string[]>;
  missing: string[];
} {
  const fields = Object.entries((schema.properties ?? {}) as Record<string, Field>);
  const required = new Set(schema.required ?? []);
  const content: Record<string, string | number | boolean | string[]> = {};
  const missing: string[] = [];
  const confirmation = fields.length === 1 && fields[0]?.[1].type === 'boolean';
  for (const [name, field] of fields) {
    if (field.default !== undefined) content[name] = field.default as string | number | boolean | string[];
    else if (confirmation) content[name] = true;
    else if (required.has(name)) missing.push(name);
  }
  return { content, missing };
}

function shown(content: Record<string, unknown>): string {
  const pairs = Object.entries(content).map(([name, value]) => `${name} = ${JSON.stringify(value)}`);
  return pairs.length > 0
    ? ` Approving answers: ${pairs.join(', ')}.`
    : ' Approving answers with nothing more.';
}

/** Options of {@link elicitationThroughApproval}. */
export interface ElicitationApprovalOptions {
  /** How long the user has to answer, in milliseconds. */
  timeoutMs: number;
  /** The conversation the call belongs to, for the approval surface. */
  conversationId?: string | undefined;
  /** Hears each question that could not be put to the user, and why. */
  onDecline?: (message: string, reason: string) => void;
}

/**
 * Puts a server's question (MCP elicitation, form mode) to the user through the answer's
 * approval surface (Discord buttons, the dashboard, the terminal): approving answers with the
 * form's defaults, denying declines. A form that needs typed input, a URL to open, or no answer
 * in time is declined. The server's words are shown as its own, quoted and attributed.
 */
export function elicitationThroughApproval(
  approve: ApproveFunction,
  options: ElicitationApprovalOptions,
): McpElicitationHandler {
  return async (request, signal) => {
    const params = request.params;
    if (params.mode === 'url' || !('requestedSchema' in params)) {
      options.onDecline?.(request.message, 'a question that opens a URL is not offered');
      return { action: 'decline' };
    }
    const { content, missing } = formAnswer(params.requestedSchema);
    if (missing.length > 0) {
      options.onDecline?.(request.message, `it needs typed answers (${missing.join(', ')})`);
      return { action: 'decline' };
    }
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]);
    const question = request.message.replace(/\s+/g, ' ').trim().slice(0, 500);
    const asked = approve({
      tool: 'MCP',
      argument: `MCP server "${request.server}" asks: "${question}"`,
      rule: 'send',
      reason: `MCP server "${request.server}" asks you a question in the middle of a call: "${question}".${shown(content)} Denying declines.`,
      conversationId: options.conversationId,
      signal: deadline,
      timeoutMs: options.timeoutMs,
    });
    const refused = new Promise<false>((resolve) =>
      deadline.addEventListener('abort', () => resolve(false), { once: true }),
    );
    const approved = await Promise.race([asked.catch(() => false), refused]);
    return approved === true ? { action: 'accept', content } : { action: 'decline' };
  };
}
