/** Mirrors src/server/ollama-probe.ts. */
export interface OllamaStatus {
  host: string;
  model: string | null;
  reachable: boolean;
  version?: string;
  models: string[];
  tools: boolean | null;
  /** One sentence naming what is wrong and the fix. */
  problem?: string;
  checkedAt: number;
}

/** `GET /api/settings`. */
export interface Settings {
  host: string;
  model: string | null;
  ollama: OllamaStatus;
  settingsFile: string;
  environmentOverrides: string[];
}
