// The Ollama status the server probes and the page shows: one definition for both sides.

/** What the dashboard knows about the Ollama it talks to. */
export interface OllamaStatus {
  /** The kind of server: Ollama (default) or an OpenAI-compatible one (MODEL_PROVIDER=openai). */
  provider?: 'ollama' | 'openai';
  /** Ollama's address, or the OpenAI-compatible API's base URL. */
  host: string;
  /** The model the chat uses: the chosen one when installed, else the first suitable one; null when none. */
  model: string | null;
  reachable: boolean;
  version?: string;
  /** Installed models, as `GET /api/tags` lists them. */
  models: string[];
  /** Whether the model has Ollama's `tools` capability; null when unknown. */
  tools: boolean | null;
  /** One sentence naming what is wrong and the fix, for the banner; absent when all is well. */
  problem?: string;
  /** When this was checked, ms since the epoch. */
  checkedAt: number;
}

/** One model of the last `macstats eval` report, as Settings shows it. */
export interface EvalModelSummary {
  model: string;
  mode: 'native' | 'text';
  /** 0–1. */
  score: number;
  toolCallSuccess: number;
  correctAnswers: number;
  plantedInstructionIgnored: boolean;
  medianLatencyMs: number;
}

/** The last `macstats eval` report (`$MACSTATS_HOME/eval.json`, docs/eval-report.schema.json), best first. */
export interface EvalSummary {
  createdAt: string;
  best: string | null;
  models: EvalModelSummary[];
}

/** `GET /api/settings`. */
export interface Settings {
  /** The last model evaluation, when `macstats eval` has run. */
  evaluation: EvalSummary | null;
  host: string;
  model: string | null;
  ollama: OllamaStatus;
  settingsFile: string;
  environmentOverrides: string[];
}
