import { AGENT_DEFAULTS, type Logger, type Tool, type ToolResult } from '@macstats/core';
import { withSpan } from '@macstats/core/internal';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { approvalFromClient } from './served-approval.js';
import { annotationsOf, createServedPolicy, servedRefusal } from './served-policy.js';

/** Options of {@link createToolServerFactory}. */
export interface ToolServerOptions {
  /** The server's name and version in the MCP handshake. */
  name: string;
  version: string;
  /** The conversation every call belongs to (MEMORY keeps an MCP client's notes under it). */
  conversationId: string;
  /** Time limit of one tool run, as in the agent. Default `AGENT_DEFAULTS.toolTimeoutMs`. */
  toolTimeoutMs?: number;
  /** Output longer than this is cut with a note, as in the agent. Default `AGENT_DEFAULTS.maxToolOutputChars`. */
  maxOutputChars?: number;
  logger: Logger;
}

/** The schema of a tool without `parameters`: its one text argument. */
const TEXT_ARGUMENT = {
  type: 'object',
  properties: { argument: { type: 'string', description: 'The text after "NAME: " in the usage line.' } },
  required: ['argument'],
} as const;

interface Served {
  tool: Tool;
  schema: Record<string, unknown>;
  validate: JsonSchemaValidator<Record<string, unknown>>;
}

/**
 * Serves tools over MCP: each tool is listed with its JSON Schema (its `parameters`, or one
 * `argument` string) and called with the same limits the agent applies (a time limit per run,
 * an output cap); the tool's own limits (sandbox, SSRF guard, size caps, concurrency) hold
 * because it is the same tool. Every call passes containment's policy stage first, the client's
 * request counting as outside content (see `createServedPolicy`), and each tool publishes MCP
 * annotations derived from its labels. A refusal or failure comes back as `isError: true` with the
 * tool's sentence. Returns a factory: the Streamable HTTP transport needs a server per request.
 */
export function createToolServerFactory(tools: readonly Tool[], options: ToolServerOptions): () => Server {
  const validator = new AjvJsonSchemaValidator();
  const served = new Map<string, Served>(
    tools.map((tool) => {
      const schema = tool.parameters ?? TEXT_ARGUMENT;
      return [tool.name, { tool, schema, validate: validator.getValidator(schema as JsonSchemaType) }];
    }),
  );
  const timeoutMs = options.toolTimeoutMs ?? AGENT_DEFAULTS.toolTimeoutMs;
  const maxOutputChars = options.maxOutputChars ?? AGENT_DEFAULTS.maxToolOutputChars;
  const { logger } = options;
  // One policy for the process: a client reads through one call and sends through the next.
  const policy = createServedPolicy();

  async function call(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    ask: ((reason: string, signal: AbortSignal) => Promise<boolean>) | undefined,
  ): Promise<CallToolResult> {
    const entry = served.get(name);
    if (!entry)
      return failure(`There is no tool "${name}" here; the tools are ${[...served.keys()].join(', ')}.`);
    const checked = entry.validate(args);
    if (!checked.valid)
      return failure(`The arguments of ${name} do not fit its schema: ${checked.errorMessage}.`);
    const argument = entry.tool.parameters ? argumentText(args) : String(args.argument ?? '');
    const verdict = policy.check(entry.tool, argument, entry.tool.parameters ? args : undefined);
    if (verdict.action !== 'run') {
      const approved = verdict.action === 'ask' && ask ? await ask(verdict.reason, signal) : undefined;
      logger.info({ tool: name, rule: verdict.action, approved }, 'mcp serve: containment stopped a call');
      if (approved !== true) {
        const how = verdict.action === 'refuse' ? 'refused' : approved === false ? 'denied' : 'nobody';
        return failure(servedRefusal(verdict.reason, how));
      }
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const started = performance.now();
    let result: ToolResult;
    try {
      const context = {
        signal: AbortSignal.any([signal, timeout]),
        conversationId: options.conversationId,
        logger,
        // A note or schedule a client keeps carries the client's request as outside content.
        labels: policy.labels(),
      };
      const raw = entry.tool.parameters
        ? await entry.tool.run(argument, { ...context, arguments: args })
        : await entry.tool.run(argument, context);
      result = typeof raw === 'string' ? { text: raw } : raw;
    } catch (error) {
      if (signal.aborted) throw error;
      result = timeout.aborted
        ? { isError: true, text: `${name} did not finish within ${Math.round(timeoutMs / 1000)} s.` }
        : { isError: true, text: `${name} failed: ${(error as Error).message}` };
      logger.warn({ tool: name, err: error }, 'mcp serve: tool threw');
    }
    policy.absorb(entry.tool, argument, verdict.labels, result.text, [
      argument,
      ...Object.values(args).map(String),
    ]);
    for (const source of result.labels?.outside ?? [])
      policy.absorb(entry.tool, source, { outside: true }, '', []);
    for (const source of result.labels?.private ?? [])
      policy.absorb(entry.tool, source, { private: true }, '', []);
    logger.info(
      { tool: name, isError: result.isError === true, ms: Math.round(performance.now() - started) },
      'mcp serve: tool called',
    );
    const text =
      result.text.length > maxOutputChars
        ? `${result.text.slice(0, maxOutputChars)}\n[cut: ${result.text.length - maxOutputChars} more characters]`
        : result.text;
    return { content: [{ type: 'text', text }], ...(result.isError ? { isError: true } : {}) };
  }

  return () => {
    const server = new Server(
      { name: options.name, version: options.version },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [...served.values()].map(({ tool, schema }) => ({
        name: tool.name,
        description: `${tool.description} (As a text call: ${tool.usage})`,
        inputSchema: schema as { type: 'object' },
        // True hints, derived from the tool's own labels: a client may rely on them.
        annotations: annotationsOf(tool),
      })),
    }));
    // One span per call, named and attributed as OpenTelemetry's MCP conventions name a served
    // call; a no-op unless the process traces (OTEL_*).
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      withSpan(
        trace.getTracer('@macstats/cli'),
        `tools/call ${request.params.name}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'mcp.method.name': 'tools/call',
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': request.params.name,
            'jsonrpc.request.id': String(extra.requestId),
          },
        },
        async (span) => {
          const result = await call(
            request.params.name,
            request.params.arguments ?? {},
            extra.signal,
            approvalFromClient(server),
          );
          if (result.isError) {
            span.setAttribute('error.type', 'tool_error');
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          return result;
        },
      ),
    );
    return server;
  };
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The text form of a structured call: its one string value, else the object's JSON (as core's parser gives it). */
function argumentText(args: Record<string, unknown>): string {
  const values = Object.values(args);
  return values.length === 1 && typeof values[0] === 'string' ? values[0] : JSON.stringify(args);
}
