import { updateConfigEnv } from '@macstats/app-config';
import type { AgentSource, ChatAgent } from './chat-feature.js';
import { readEvalSummary } from './eval-summary.js';
import { HttpError, readJsonBody, sendJson, stringField } from './http-helpers.js';
import type { OllamaStatus } from './model-probe.js';
import type { DashboardCore, DashboardFeature } from './start-dashboard.js';

/** Options of {@link createOllamaFeature}. */
export interface OllamaFeatureOptions {
  host: string;
  /** The configured model; when absent the first model Ollama lists is used. */
  model?: string;
  /** Builds the agent for a host and model (core's `createAgent` with the app's tools). */
  createAgent(ollama: { host: string; model: string }): ChatAgent;
  /** Called when the agent is replaced (a new host or model), to close the old one. */
  retireAgent?(agent: ChatAgent): void;
  /** The `.config.env` where a choice made in Settings is saved (`$MACSTATS_HOME/.config.env`). */
  settingsFile: string;
  /** Variables set in the environment, which win over the saved file at the next start. */
  environmentOverrides?: string[];
  /** How often to check Ollama again while it is not reachable. Default 10 s; 60 s while it is. */
  recheckMs?: number;
  /** Checks the server at `host` for `model` (the composition root's check, as `probeModelServer` shows it). */
  probe(host: string, model: string | undefined, signal: AbortSignal): Promise<OllamaStatus>;
  /** The last `macstats eval` report (`$MACSTATS_HOME/eval.json`), shown in Settings. */
  evalReportFile?: string;
  /** The names Settings saves the address and model under. Default OLLAMA_HOST and OLLAMA_MODEL. */
  settingsKeys?: { host: string; model: string };
}

/** Defaults of {@link OllamaFeatureOptions}. */
export const OLLAMA_FEATURE_DEFAULTS = { recheckMs: 10_000, healthyRecheckMs: 60_000 } as const;

const MODEL_PATTERN = /^[\w.:/-]{1,200}$/;

/**
 * Settings and the Ollama banner: probes Ollama at start, now and then, and on demand; pushes
 * the status to every page; saves the host and model chosen in Settings; hands the chat the
 * agent for the current choice.
 */
export function createOllamaFeature(
  core: DashboardCore,
  options: OllamaFeatureOptions,
): DashboardFeature & { agent: AgentSource; status(): OllamaStatus; check(): Promise<OllamaStatus> } {
  const recheckMs = options.recheckMs ?? OLLAMA_FEATURE_DEFAULTS.recheckMs;
  const closing = new AbortController();
  let host = options.host;
  let chosenModel = options.model;
  let status: OllamaStatus = {
    host,
    model: chosenModel ?? null,
    reachable: false,
    models: [],
    tools: null,
    checkedAt: 0,
  };
  let agent: { key: string; value: ChatAgent } | undefined;
  let timer: NodeJS.Timeout | undefined;
  // The probe under way, for the host and model it checks: a check after Settings changed
  // them must not be answered by a probe of the old ones.
  let probing: { key: string; result: Promise<OllamaStatus> } | undefined;
  const choiceKey = () => `${host}\n${chosenModel ?? ''}`;

  const schedule = () => {
    clearTimeout(timer);
    if (closing.signal.aborted) return;
    timer = setTimeout(
      () => void check(),
      status.problem ? recheckMs : OLLAMA_FEATURE_DEFAULTS.healthyRecheckMs,
    );
    timer.unref();
  };

  function check(): Promise<OllamaStatus> {
    const key = choiceKey();
    if (probing?.key === key) return probing.result;
    const current: { key: string; result: Promise<OllamaStatus> } = {
      key,
      result: options.probe(host, chosenModel, closing.signal).then(
        (next) => {
          if (probing === current) probing = undefined;
          // Settings changed while this probe ran: its answer is about the old choice.
          if (key !== choiceKey()) return next;
          const changed =
            JSON.stringify({ ...next, checkedAt: 0 }) !== JSON.stringify({ ...status, checkedAt: 0 });
          status = next;
          if (changed) core.hub.broadcast('ollama', status);
          schedule();
          return status;
        },
        // Only an abort rejects: the dashboard is closing.
        () => {
          if (probing === current) probing = undefined;
          return status;
        },
      ),
    };
    probing = current;
    return current.result;
  }

  const agentSource: AgentSource = async () => {
    const current = status.reachable ? status : await check();
    if (current.model === null || current.problem !== undefined) {
      return { unavailable: current.problem ?? 'Ollama is not ready: check it in Settings.' };
    }
    const key = `${host}\n${current.model}`;
    if (agent?.key !== key) {
      if (agent) options.retireAgent?.(agent.value);
      agent = { key, value: options.createAgent({ host, model: current.model }) };
    }
    return agent.value;
  };

  const settings = async () => ({
    host,
    model: chosenModel ?? null,
    ollama: status,
    settingsFile: options.settingsFile,
    environmentOverrides: options.environmentOverrides ?? [],
    evaluation: options.evalReportFile ? await readEvalSummary(options.evalReportFile) : null,
  });

  void check();

  return {
    agent: agentSource,
    status: () => status,
    check,
    // Not awaiting the first check: a slow Ollama must not hold up the first paint; its
    // status follows as an `ollama` event.
    state: () => ({ ollama: status }),
    onStreamOpen(client) {
      if (status.checkedAt > 0) client.send('ollama', status);
    },
    routes: [
      {
        method: 'GET',
        path: /^\/api\/settings$/,
        kind: 'read',
        async handle({ response }) {
          await check();
          sendJson(response, 200, await settings());
        },
      },
      {
        method: 'POST',
        path: /^\/api\/settings$/,
        kind: 'write',
        async handle({ request, response }) {
          const body = await readJsonBody(request);
          const nextHost = parseHost(stringField(body, 'host'));
          const modelText = stringField(body, 'model', false).trim();
          if (modelText !== '' && !MODEL_PATTERN.test(modelText)) {
            throw new HttpError(400, 'The model name may hold letters, digits and . : / _ - only.');
          }
          host = nextHost;
          chosenModel = modelText === '' ? undefined : modelText;
          const keys = options.settingsKeys ?? { host: 'OLLAMA_HOST', model: 'OLLAMA_MODEL' };
          await updateConfigEnv(options.settingsFile, { [keys.host]: host, [keys.model]: chosenModel });
          await check();
          sendJson(response, 200, await settings());
        },
      },
      {
        method: 'POST',
        path: /^\/api\/ollama\/check$/,
        kind: 'write',
        async handle({ response }) {
          sendJson(response, 200, await check());
        },
      },
    ],
    async close() {
      closing.abort();
      clearTimeout(timer);
      await probing?.result;
      if (agent) options.retireAgent?.(agent.value);
    },
  };
}

/** Accepts an http(s) base URL and returns it without a trailing slash. */
export function parseHost(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new HttpError(400, 'The Ollama address must be a URL such as http://127.0.0.1:11434.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HttpError(400, 'The Ollama address must start with http:// or https://.');
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new HttpError(400, 'The Ollama address must be a plain base URL, without credentials or query.');
  }
  return url.href.replace(/\/+$/, '');
}
