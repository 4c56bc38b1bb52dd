import { trace } from '@opentelemetry/api';
import { coreError, MacstatsError } from '../errors.js';
import { errorTypeOf } from '../telemetry/spans.js';
import { type Logger, silentLogger } from '../util/logger.js';
import { maskUrl } from '../util/mask-url.js';
import type { ChatModel, ChatReply, ChatRequest, ModelCapabilities } from './chat-model.js';

/** What a pool member reports about its server; see {@link PoolMember.status}. */
export interface PoolMemberStatus {
  /** Models the server has (Ollama's `/api/tags`). */
  models: string[];
  /** Models loaded in memory now (Ollama's `/api/ps`); answering with one of these starts at once. */
  loaded: string[];
}

/** One server of a {@link createModelPool | pool}. */
export interface PoolMember {
  /** Names the member in logs: its host URL, say. */
  name: string;
  model: ChatModel;
  /**
   * Asks the server what it has and has loaded. Optional: without it the member is assumed to
   * have every model, and its health is learnt from its requests alone.
   */
  status?(signal: AbortSignal): Promise<PoolMemberStatus>;
}

/** Options of {@link createModelPool}. Defaults are in `MODEL_POOL_DEFAULTS`. */
export interface ModelPoolOptions {
  /** The servers; a bare `ChatModel` is a member named after its model. At least one. */
  members: ReadonlyArray<PoolMember | ChatModel>;
  /** The model name requests without `model` ask for. Default: the first member's. */
  model?: string | undefined;
  /** How often members are asked for their status in the background. Default 10 000. */
  healthIntervalMs?: number | undefined;
  /** Time limit of one status check. Default 3 000. */
  statusTimeoutMs?: number | undefined;
  /** Where members going down and coming back are logged. Default: silent. */
  logger?: Logger | undefined;
}

/** How a pool sees one member now, for dashboards and `doctor`. */
export interface PoolMemberView {
  name: string;
  healthy: boolean;
  inFlight: number;
  /** From the last status check; `undefined` when the member has no `status` or none succeeded. */
  models?: string[] | undefined;
  loaded?: string[] | undefined;
}

/** A {@link ChatModel} that spreads requests over several servers. */
export interface ModelPool extends ChatModel {
  /** Each member as the pool sees it now. */
  members(): PoolMemberView[];
  /** Checks every member's status now; resolves when all have answered or failed. */
  checkHealth(): Promise<void>;
  /** Stops the background health checks, and logging: a check still under way ends quietly. Requests under way finish. */
  close(): void;
}

/** Defaults of {@link ModelPoolOptions}. */
export const MODEL_POOL_DEFAULTS = {
  healthIntervalMs: 10_000,
  statusTimeoutMs: 3_000,
} as const;

interface MemberState {
  member: PoolMember;
  healthy: boolean;
  inFlight: number;
  /** Requests sent to it so far; breaks ties so equal members take turns. */
  served: number;
  status?: PoolMemberStatus | undefined;
}

/**
 * Several servers as one model. Each request goes to a healthy member that has the model,
 * preferring one where it is already loaded, then the one with fewest requests in flight. A
 * member that fails before the first token is marked down and the request is retried once on
 * another member; a failure after tokens were streamed is not retried (the user would see the
 * start twice), nor is the caller's abort or a refusal of native tools (the agent falls back to
 * the text protocol). Members are rechecked in the background; a member marked down comes back
 * when its status check succeeds (or, without `status`, at the next check).
 *
 * @example
 * const pool = createModelPool({
 *   members: config.ollamaHosts.map((host) => createOllamaPoolMember({ host, model: config.model })),
 * });
 * const agent = createAgent({ model: pool, tools });
 */
export function createModelPool(options: ModelPoolOptions): ModelPool {
  if (options.members.length === 0) {
    throw coreError('INVALID_OPTION', 'createModelPool needs at least one member.');
  }
  const logger = options.logger ?? silentLogger;
  const statusTimeoutMs = options.statusTimeoutMs ?? MODEL_POOL_DEFAULTS.statusTimeoutMs;
  const states: MemberState[] = options.members.map((entry) => ({
    member: isMember(entry) ? entry : { name: entry.model, model: entry },
    healthy: true,
    inFlight: 0,
    served: 0,
  }));
  const first = states[0] as MemberState;
  const defaultModel = options.model ?? first.member.model.model;

  const candidates = (model: string, exclude: ReadonlySet<MemberState>) =>
    rankCandidates(states, model, exclude);

  // After close() the app may have closed its logger too: a check still under way must not log.
  let closed = false;

  function markDown(state: MemberState, error: unknown): void {
    if (!state.healthy) return;
    state.healthy = false;
    if (!closed)
      logger.warn({ member: state.member.name, err: error }, 'model pool member failed; routing around it');
  }

  async function chat(request: ChatRequest): Promise<ChatReply> {
    const model = request.model ?? defaultModel;
    const tried = new Set<MemberState>();
    let lastError: unknown;
    for (let round = 0; round < 2; round += 1) {
      const state = candidates(model, tried)[0];
      if (state === undefined) break;
      tried.add(state);
      const streamed = { value: false };
      try {
        return await attempt(state, { ...request, model }, streamed);
      } catch (error) {
        if (request.signal?.aborted || streamed.value || isToolsRefusal(error)) throw error;
        lastError = error;
        markDown(state, error);
        trace.getActiveSpan()?.addEvent('pool member failed', {
          'macstats.pool.member': memberLabel(state.member.name),
          'error.type': errorTypeOf(error),
        });
      }
    }
    if (lastError !== undefined) throw lastError;
    throw coreError('MODEL_POOL_NO_MEMBER', `No server of the pool has the model "${model}".`);
  }

  async function capabilities(
    asked: { model?: string; signal?: AbortSignal } = {},
  ): Promise<ModelCapabilities> {
    const model = asked.model ?? defaultModel;
    let lastError: unknown;
    for (const state of candidates(model, new Set())) {
      try {
        return await state.member.model.capabilities({ ...asked, model });
      } catch (error) {
        if (asked.signal?.aborted) throw error;
        lastError = error;
      }
    }
    throw lastError ?? coreError('MODEL_POOL_NO_MEMBER', `No server of the pool has the model "${model}".`);
  }

  async function checkOne(state: MemberState): Promise<void> {
    const { status } = state.member;
    if (status === undefined) {
      // Nothing to ask: give a member marked down another chance at each check.
      state.healthy = true;
      return;
    }
    try {
      state.status = await status.call(state.member, AbortSignal.timeout(statusTimeoutMs));
      if (!state.healthy && !closed) logger.info({ member: state.member.name }, 'model pool member is back');
      state.healthy = true;
    } catch (error) {
      markDown(state, error);
    }
  }

  let checking: Promise<void> | undefined;
  const checkHealth = () => {
    checking ??= Promise.all(states.map(checkOne)).then(() => {
      checking = undefined;
    });
    return checking;
  };
  const timer = setInterval(
    () => void checkHealth(),
    options.healthIntervalMs ?? MODEL_POOL_DEFAULTS.healthIntervalMs,
  );
  timer.unref();
  void checkHealth();

  const provider = first.member.model.provider;
  return {
    model: defaultModel,
    ...(provider !== undefined ? { provider } : {}),
    chat,
    capabilities,
    describeError: (error, asked) => {
      for (const state of states) {
        const sentence = state.member.model.describeError?.(error, asked);
        if (sentence !== undefined) return sentence;
      }
      return undefined;
    },
    members: () =>
      states.map((state) => ({
        name: state.member.name,
        healthy: state.healthy,
        inFlight: state.inFlight,
        models: state.status?.models,
        loaded: state.status?.loaded,
      })),
    checkHealth,
    close: () => {
      closed = true;
      clearInterval(timer);
    },
  };
}

/** The members to try for `model`, best first (loaded there, fewest in flight, least served). */
function rankCandidates(
  states: readonly MemberState[],
  model: string,
  exclude: ReadonlySet<MemberState>,
): MemberState[] {
  const has = (state: MemberState) =>
    state.status === undefined || state.status.models.some((name) => sameModel(name, model));
  const open = states.filter((state) => !exclude.has(state) && has(state));
  const healthy = open.filter((state) => state.healthy);
  // When every member is down, try them anyway: one may be back before its next check.
  return (healthy.length > 0 ? healthy : open).sort(
    (a, b) =>
      Number(isLoaded(b, model)) - Number(isLoaded(a, model)) ||
      a.inFlight - b.inFlight ||
      a.served - b.served,
  );
}

/** One request on one member; `streamed` turns true at its first token. */
async function attempt(
  state: MemberState,
  request: ChatRequest,
  streamed: { value: boolean },
): Promise<ChatReply> {
  state.inFlight += 1;
  state.served += 1;
  // The request's span (`chat <model>`) says which server answered.
  trace.getActiveSpan()?.setAttribute('macstats.pool.member', memberLabel(state.member.name));
  try {
    const onToken = request.onToken;
    return await state.member.model.chat({
      ...request,
      ...(onToken
        ? {
            onToken: (text: string) => {
              streamed.value = true;
              onToken(text);
            },
          }
        : {}),
    });
  } finally {
    state.inFlight -= 1;
  }
}

function isMember(entry: PoolMember | ChatModel): entry is PoolMember {
  return typeof (entry as PoolMember).name === 'string' && typeof (entry as PoolMember).model === 'object';
}

/** A member's name as spans show it: a URL without its path, query or user info (they may hold keys). */
function memberLabel(name: string): string {
  return /^[a-z][\w+.-]*:\/\//i.test(name) ? maskUrl(name) : name;
}

function isLoaded(state: MemberState, model: string): boolean {
  return state.status?.loaded.some((name) => sameModel(name, model)) ?? false;
}

/** `llama3.2` names `llama3.2:latest`, as Ollama reads it. */
function sameModel(listed: string, wanted: string): boolean {
  const full = (name: string) => (name.includes(':') ? name : `${name}:latest`);
  return full(listed) === full(wanted);
}

function isToolsRefusal(error: unknown): boolean {
  return MacstatsError.isInstance(error) && error.unsupported === 'tools';
}
