import { type Logger, MacstatsError, silentLogger, type ToolResult } from '@macstats/core';
import { formatDuration, raceSignal, redactUrl } from '@macstats/core/internal';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpCallOptions, McpConnectionStatus } from './connection-types.js';
import { MCP_DEFAULTS } from './defaults.js';
import { ElicitationRouter } from './elicitation.js';
import type { McpConnectOAuthOptions, McpConnectOptions, McpEvent } from './events.js';
import { failureReason, isTimeout, isTransientFailure } from './failure.js';
import { formatCallResult } from './format-result.js';
import { fetchToolList } from './list-tools.js';
import { mcpError } from './mcp-errors.js';
import { createMcpTool, type McpTool } from './mcp-tool.js';
import { isUnauthorized, signInFailure } from './oauth-failure.js';
import type { McpOAuthProvider } from './oauth-provider.js';
import { errorText, type McpTransportKind, type OpenClient, openClient } from './open-client.js';
import { PinnedToolList } from './pinned-tool-list.js';
import { RestartBackoff } from './restart-backoff.js';
import { providerFor } from './server-auth.js';
import { describeServer, isUrlServer, type McpServerSpec, validateServer } from './server-spec.js';
import type { McpToolInfo } from './tool-info.js';

type Settings = Required<
  Omit<McpConnectOptions, 'onEvent' | 'logger' | 'trust' | 'pins' | 'oauth' | 'elicitation'>
> &
  Pick<McpConnectOptions, 'onEvent'>;

/**
 * A warm connection to one MCP server. The server is started (or reached) once and reused;
 * a stdio server that dies is restarted on the next use, with backoff when it keeps failing;
 * `notifications/tools/list_changed` refreshes the tool list. Made by `connectMcp`.
 */
export class McpConnection {
  /** Name of the server in logs, events and tool names. */
  readonly name: string;
  /** The server as logs may show it: the host of a URL, the program of a command. */
  readonly description: string;
  /** The `MCP` tool over this server's tools, for the agent's tool list. */
  readonly tool: McpTool;
  readonly #server: McpServerSpec;
  readonly #settings: Settings;
  readonly #logger: Logger;
  readonly #closing = new AbortController();
  #open: OpenClient | undefined;
  #connecting: Promise<OpenClient> | undefined;
  #oauth: McpConnectOAuthOptions | undefined;
  readonly #questions: ElicitationRouter | undefined;
  #provider:
    | (OAuthClientProvider & Partial<Pick<McpOAuthProvider, 'signInReason' | 'missingScope'>>)
    | undefined;
  #kind: McpTransportKind | undefined;
  readonly #list: PinnedToolList;
  /** The user trusts this server (see `McpConnectOptions.trust`). */
  readonly trusted: boolean;
  readonly #backoff: RestartBackoff;
  #refreshing: Promise<void> | undefined;
  #refreshAgain = false;

  /**
   * Prefer `connectMcp`, which also connects.
   *
   * @throws MacstatsError `MCP_CONFIG_INVALID` for a stdio form without a command or a URL that
   *   is not http(s).
   */
  constructor(server: McpServerSpec, options: McpConnectOptions = {}) {
    const { logger, trust, pins, oauth, elicitation, ...rest } = options;
    this.#questions = elicitation ? new ElicitationRouter(elicitation) : undefined;
    validateServer(server);
    this.trusted = trust === true;
    this.#server = server;
    this.#logger = logger ?? silentLogger;
    this.#settings = { ...MCP_DEFAULTS, name: 'mcp', now: Date.now, ...rest };
    this.name = this.#settings.name;
    this.#list = new PinnedToolList(this.name, pins, this.#logger, (event) => this.#emit(event));
    if (oauth && isUrlServer(server)) {
      this.#oauth = oauth;
      this.#provider =
        oauth.provider?.(this.name) ?? providerFor(server, oauth.store(this.name), this.#settings.clientName);
    }
    this.#backoff = new RestartBackoff(
      this.#settings.restartBackoffMs,
      this.#settings.maxRestartBackoffMs,
      this.#settings.now,
    );
    this.description = describeServer(server);
    this.tool = createMcpTool(
      () => this.tools.map((tool) => ({ displayName: tool.name, tool, connection: this })),
      {
        maxDescriptionChars: this.#settings.maxDescriptionChars,
        unavailable: () => (this.#list.offered ? undefined : `MCP server "${this.name}" is not reachable`),
      },
    );
  }

  /** Where the connection stands right now. */
  get status(): McpConnectionStatus {
    if (this.#closing.signal.aborted) return 'closed';
    if (this.#open) return 'connected';
    if (this.#connecting) return 'connecting';
    return this.#backoff.failures > 0 ? 'down' : 'idle';
  }

  /** How the server was reached, once it has been. */
  get transport(): McpTransportKind | undefined {
    return this.#kind;
  }

  /** Process id of a running stdio server. */
  get pid(): number | undefined {
    return this.#open?.pid;
  }

  /**
   * The tools of the last successful `tools/list` that are offered; empty before the first. With
   * pins, a tool whose definition changed since it was pinned is left out (see {@link withheld}).
   */
  get tools(): readonly McpToolInfo[] {
    return this.#list.offered ?? [];
  }

  /** Tools not offered because their definition changed since it was pinned, or they are new. */
  get withheld(): readonly string[] {
    return this.#list.withheld;
  }

  /**
   * Pins the server's current tool definitions as accepted (`macstats mcp trust <server>`), so the
   * changed ones are offered again. Lists the tools first when none were listed yet.
   */
  async pinTools(signal?: AbortSignal): Promise<readonly McpToolInfo[]> {
    await this.listTools({ refresh: true, ...(signal ? { signal } : {}) });
    await this.#list.trustListed();
    return this.tools;
  }

  /** Milliseconds until the next restart attempt of a failing server is allowed; 0 when now. */
  get retryInMs(): number {
    return this.#backoff.waitMs;
  }

  /** Starts or reaches the server and lists its tools; `now` skips the backoff (after a sign-in). */
  async connect(signal?: AbortSignal, options: { now?: boolean } = {}): Promise<void> {
    // Attempts under way checked the backoff before: they end first.
    while (options.now && this.#connecting) await this.#connecting.catch(() => {});
    if (options.now) this.#backoff.recordSuccess();
    await raceSignal(this.#ensureOpen(), signal);
  }

  /**
   * The server's tools: the cached list, or a fresh `tools/list` when `refresh` is set or none
   * is cached. Rejects when the server cannot be reached (after one retry).
   */
  async listTools(options: { signal?: AbortSignal; refresh?: boolean } = {}): Promise<McpToolInfo[]> {
    if (this.#list.offered && !options.refresh) return [...this.#list.offered];
    const deadlineAt = performance.now() + this.#settings.callTimeoutMs;
    await this.#attempt('tools/list', options.signal, deadlineAt, (open, timeout) =>
      this.#fetchTools(open.client, options.signal, timeout),
    );
    this.#backoff.recordSuccess();
    return [...(this.#list.offered ?? [])];
  }

  /**
   * Calls a tool. Resolves `{ isError: true, text: 'MCP tool "<name>" failed: <reason>' }` when
   * the arguments do not fit, the server cannot be reached, the call times out or the tool
   * reports an error; rejects only when `options.signal` aborts or after `close()`.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: McpCallOptions = {},
  ): Promise<ToolResult> {
    const displayName = options.displayName ?? name;
    const refusal = this.#list.refusal(name, displayName, args);
    if (refusal) return { isError: true, text: refusal };
    const timeoutMs = options.timeoutMs ?? this.#settings.callTimeoutMs;
    // The budget covers the whole call, a reconnect and the retry included. On the warm path
    // the SDK's own request timeout enforces it: no extra timer or signal per call.
    const deadlineAt = performance.now() + timeoutMs;
    const signal = options.signal;
    try {
      const call = () =>
        this.#attempt(`tools/call ${name}`, signal, deadlineAt, (open, timeout) =>
          open.client.callTool(
            { name, arguments: args },
            undefined,
            signal ? { signal, timeout } : { timeout },
          ),
        );
      const result = this.#questions ? await this.#questions.during(options.elicitation, call) : await call();
      this.#backoff.recordSuccess();
      return formatCallResult(displayName, result, this.#settings.maxResultChars);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (MacstatsError.isInstance(error) && error.code === 'MCP_CLOSED') throw error;
      const reason =
        isTimeout(error) || (MacstatsError.isInstance(error) && error.code === 'MCP_TIMEOUT')
          ? `no answer within ${formatDuration(timeoutMs)}`
          : this.#reason(error);
      this.#logger.warn({ server: this.name, tool: name, reason }, 'MCP tool call failed');
      // The SDK's transport remembers a step-up it gave up on and never asks again on it: the
      // next call opens a fresh connection, which uses the tokens a new sign-in stored.
      if (this.#provider?.signInReason === 'scope')
        void this.#take()
          ?.client.close()
          .catch(() => {});
      return { isError: true, text: `MCP tool "${displayName}" failed: ${reason}` };
    }
  }

  /** Ends the server (a child process gets stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    if (this.#closing.signal.aborted) return;
    this.#closing.abort(mcpError('MCP_CLOSED', `MCP connection "${this.name}" is closed.`));
    const open = this.#take() ?? (await this.#connecting?.catch(() => undefined));
    await open?.client.close().catch(() => {});
  }

  // Runs one request on a live client, with one retry on a fresh connection when the link
  // failed, all within the time left until `deadlineAt`.
  async #attempt<T>(
    what: string,
    signal: AbortSignal | undefined,
    deadlineAt: number,
    run: (open: OpenClient, timeoutMs: number) => Promise<T>,
  ): Promise<T> {
    let open = this.#open ?? (await this.#openWithin(signal, deadlineAt));
    try {
      return await run(open, remaining(deadlineAt));
    } catch (error) {
      if (signal?.aborted || this.#closing.signal.aborted || !isTransientFailure(error)) throw error;
      const reason = this.#reason(error);
      this.#drop(open, reason);
      this.#logger.info(
        { server: this.name, request: what, reason },
        'MCP request failed on a broken link; retrying once',
      );
      this.#emit({ type: 'call-retry', server: this.name, tool: what, reason });
      open = await this.#openWithin(signal, deadlineAt);
      return await run(open, remaining(deadlineAt));
    }
  }

  // Waits for a connection, but no longer than the caller's signal and budget allow.
  #openWithin(signal: AbortSignal | undefined, deadlineAt: number): Promise<OpenClient> {
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(mcpError('MCP_TIMEOUT', 'timed out')), remaining(deadlineAt));
    const onAbort = () => budget.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    return raceSignal(this.#ensureOpen(), budget.signal).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  }

  #ensureOpen(): Promise<OpenClient> {
    if (this.#closing.signal.aborted) return Promise.reject(this.#closing.signal.reason);
    if (this.#open) return Promise.resolve(this.#open);
    this.#connecting ??= this.#start().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #start(): Promise<OpenClient> {
    const wait = this.retryInMs;
    if (wait > 0) {
      throw mcpError(
        'MCP_SERVER_DOWN',
        `the server failed ${this.#backoff.failures} times in a row; next restart attempt in ${formatDuration(wait)}`,
      );
    }
    const signal = AbortSignal.any([
      this.#closing.signal,
      AbortSignal.timeout(this.#settings.connectTimeoutMs),
    ]);
    let opened: OpenClient | undefined;
    try {
      opened = await openClient(this.#server, {
        name: this.name,
        logger: this.#logger,
        signal,
        timeoutMs: this.#settings.connectTimeoutMs,
        clientName: this.#settings.clientName,
        clientVersion: this.#settings.clientVersion,
        knownKind: this.#kind,
        authProvider: this.#provider,
        elicitation: this.#questions?.answer,
        onToolsChanged: (client) => this.#onToolsChanged(client),
        onClose: () => {
          if (opened) this.#drop(opened, this.#exitReason(opened));
        },
      });
      await this.#fetchTools(opened.client, signal);
      if (this.#closing.signal.aborted) throw this.#closing.signal.reason;
      this.#open = opened;
      this.#kind = opened.kind;
      const pid = opened.pid === undefined ? {} : { pid: opened.pid };
      this.#logger.info(
        { server: this.name, at: this.description, transport: opened.kind, tools: this.tools.length, ...pid },
        'MCP server connected',
      );
      this.#emit({
        type: 'server-connect',
        server: this.name,
        transport: opened.kind,
        tools: this.tools.length,
        ...pid,
      });
      return opened;
    } catch (error) {
      await opened?.client.close().catch(() => {});
      if (this.#closing.signal.aborted) throw this.#closing.signal.reason;
      this.#backoff.recordFailure();
      const reason = signal.aborted
        ? `no answer within ${formatDuration(this.#settings.connectTimeoutMs)}`
        : this.#reason(error);
      this.#logger.warn(
        { server: this.name, at: this.description, reason, failures: this.#backoff.failures },
        'MCP server could not be reached',
      );
      const signIn = isUnauthorized(error);
      const fail = { type: 'server-fail', server: this.name, reason, retryInMs: this.retryInMs } as const;
      this.#emit(signIn ? { ...fail, signIn } : fail);
      const code = signIn ? 'MCP_AUTH_REQUIRED' : 'MCP_CONNECT_FAILED';
      throw mcpError(code, reason, { cause: error });
    }
  }

  async #fetchTools(client: Client, signal: AbortSignal | undefined, timeout?: number): Promise<void> {
    await this.#list.accept(await fetchToolList(client, signal, timeout));
  }

  #onToolsChanged(client: Client): void {
    if (this.#open?.client !== client) return;
    // A change announced while a refresh is running is fetched once that refresh is done.
    if (this.#refreshing) {
      this.#refreshAgain = true;
      return;
    }
    this.#refreshing = this.#fetchTools(client, this.#closing.signal)
      .then(() => {
        this.#logger.info({ server: this.name, tools: this.tools.length }, 'MCP tool list changed');
        this.#emit({ type: 'tools-change', server: this.name, tools: this.tools.length });
      })
      .catch((error: unknown) => {
        this.#logger.warn({ server: this.name, reason: this.#reason(error) }, 'MCP tool list refresh failed');
      })
      .finally(() => {
        this.#refreshing = undefined;
        if (this.#refreshAgain) {
          this.#refreshAgain = false;
          this.#onToolsChanged(client);
        }
      });
  }

  // Forgets a broken client (once) and counts the failure for the restart backoff.
  #drop(open: OpenClient, reason: string): void {
    if (this.#open !== open) return;
    this.#open = undefined;
    this.#backoff.recordFailure();
    void open.client.close().catch(() => {});
    this.#logger.warn({ server: this.name, at: this.description, reason }, 'MCP server connection lost');
    this.#emit({ type: 'server-exit', server: this.name, reason });
  }

  /** The live client, taken out of use (closing it is the caller's). */
  #take(): OpenClient | undefined {
    const open = this.#open;
    this.#open = undefined;
    return open;
  }

  #exitReason(open: OpenClient): string {
    const last = open.stderrTail().at(-1);
    return last ? `the server exited (stderr: ${last})` : 'the server exited';
  }

  #reason(error: unknown): string {
    const signIn = signInFailure(error, this.#provider, this.name, this.#oauth?.signInHint);
    if (signIn) return signIn;
    const reason = failureReason(error);
    const text = isUrlServer(this.#server) ? redactUrl(reason, this.#server.url) : reason;
    return text || errorText(error);
  }

  #emit(event: McpEvent): void {
    try {
      this.#settings.onEvent?.(event);
    } catch (error) {
      this.#logger.error({ server: this.name, reason: errorText(error) }, 'MCP onEvent callback threw');
    }
  }
}

function remaining(deadlineAt: number): number {
  return Math.max(1, Math.round(deadlineAt - performance.now()));
}
