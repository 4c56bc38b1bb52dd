import type { Logger } from '@macstats/core';
import type { AppConfig } from '../app-config.js';
import type { InitUi } from './init-ui.js';

/** `macstats init`'s flags: answers given up front, for scripts (with `--yes`) or to skip a question. */
export interface InitFlags {
  /** Ask nothing: flags, then the file's values, then what was found. */
  yes?: boolean;
  ollamaHost?: string;
  /** An OpenAI-compatible server's API address instead of Ollama. */
  openaiUrl?: string;
  openaiKey?: string;
  model?: string;
  discordToken?: string;
  braveKey?: string;
  searxngUrl?: string;
  /** An MCP server: a URL, or the command that starts it (`npx -y pkg stdio` or `cmd|arg|arg`). */
  mcp?: string;
  /** A transcription server's API base (`TRANSCRIBE_BASE_URL`). */
  transcribeUrl?: string;
  /** Its model (`TRANSCRIBE_MODEL`). */
  transcribeModel?: string;
}

/** What every step of `macstats init` works with. */
export interface InitContext {
  ui: InitUi;
  config: AppConfig;
  flags: InitFlags;
  /** `$MACSTATS_HOME/.config.env` as it is now. */
  current: Readonly<Record<string, string>>;
  /** The keys to write; `undefined` removes one. Only changes are kept. */
  changes: Record<string, string | undefined>;
  logger: Logger;
  /** Runs `macstats eval` on the server chosen, printing through the UI. */
  runEval(config: AppConfig): Promise<void>;
}

/** Records `key` as changed when `value` differs from the file's; `undefined` removes it. */
export function setValue(context: InitContext, key: string, value: string | undefined): void {
  if (value === context.current[key]) {
    delete context.changes[key];
    return;
  }
  context.changes[key] = value;
}

/** The value `key` will have once written: a change, else the file's. */
export function upcomingValue(context: InitContext, key: string): string | undefined {
  return Object.hasOwn(context.changes, key) ? context.changes[key] : context.current[key];
}

/** `undefined` for an http(s) URL, else the sentence to show. */
export function validateUrl(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? undefined
      : 'An http:// or https:// address';
  } catch {
    return 'An address such as http://127.0.0.1:11434';
  }
}
