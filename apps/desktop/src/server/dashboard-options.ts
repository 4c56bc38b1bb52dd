import type { McpServerSet, McpSignInSurface, NoteBackend } from '@macstats/app-runtime';
import type { DailyTokenBudget, Logger, Tool } from '@macstats/core';
import type { MetricsCollector } from '@macstats/metrics';
import type { AppMetrics } from '@macstats/observability';
import type { Scheduler } from '@macstats/scheduler';
import type { DashboardSharedState } from './dashboard-shared-state.js';
import type { OllamaStatus } from './model-probe.js';
import type { HttpDashboard } from './start-dashboard.js';
import type { DashboardVoice } from './voice-feature.js';

/** Options of `startDashboard`. */
export interface DashboardOptions {
  /** The data folder (`MACSTATS_HOME`): schedules, sessions, transcripts, the saved settings. */
  home: string;
  /**
   * Counts answers and scheduled runs (`@macstats/observability`): `/metrics` when the app
   * serves it, and today's totals on the page (`GET /api/today`).
   */
  appMetrics?: AppMetrics | undefined;
  /** Prompts, replies and tool text in spans. Default false. */
  recordContent?: boolean | undefined;
  /**
   * The daily token budgets (`DAILY_TOKENS_PER_AGENT`, `DAILY_TOKENS_PER_CHANNEL`): each chat
   * answer and scheduled run passes it before the model is asked. Default: no budget.
   */
  tokenBudget?: DailyTokenBudget | undefined;
  /** Ollama's address and the model; without a model the first suitable one Ollama lists is used. */
  ollama: { host: string; model?: string; keepAlive?: string | number | undefined };
  /**
   * An OpenAI-compatible server (MODEL_PROVIDER=openai) instead of Ollama: the chat and the
   * schedules answer through it, and `ollama` is ignored.
   */
  openai?: { baseUrl: string; apiKey?: string | undefined; model?: string | undefined };
  /** The model's context length and the cap on the window reserved (MODEL_CONTEXT_LENGTH, MODEL_MAX_CONTEXT). */
  context?: { contextLength?: number; maxContextLength?: number };
  /** Port on 127.0.0.1; 0 picks a free one. Default 0. */
  port?: number;
  /**
   * The tools the settings build (`@macstats/app-runtime`'s `buildConfiguredTools`: FETCH_URL, BROWSER,
   * a search tool, RUN_CMD, MCP); METRICS, SCHEDULER, MEMORY and RUN_JS are added here. Default none.
   */
  tools?: Tool[];
  /** The MCP servers behind the MCP tool, for the Settings page (their withheld tools, trusting them again). */
  mcp?: McpServerSet | undefined;
  /** Sign-in of the remote MCP servers from Settings (`@macstats/app-runtime`'s `mcpSignInSurface`). */
  mcpSignIn?: McpSignInSurface | undefined;
  /** What is wrong with the MCP configuration (a bad `mcp.json` entry), shown in Settings; default none. */
  mcpProblems?: readonly string[] | undefined;
  /** The metrics collector; default: a new one, started here and stopped on close. */
  collector?: MetricsCollector;
  /**
   * Schedules, their state and history, the scheduler's leadership and conversation memory
   * shared through a database. Default: files in `home`, one host. The caller closes the database.
   */
  shared?: DashboardSharedState;
  /**
   * Where MEMORY notes are kept (shown and edited in the page, read into each chat answer):
   * with DATABASE_URL, `database.noteBackend()`, so the bot hosts and this dashboard share them.
   * Default: files in `home/memory`.
   */
  noteBackend?: NoteBackend | undefined;
  /** Run the scheduler (when no other process holds its lock). Default true. */
  scheduler?: boolean;
  /** Run the task runner (its steps run only while no other runner of the home, such as `macstats start`'s, holds its lock). Default true. */
  tasks?: boolean;
  /** Names of settings fixed by the environment (shown in Settings). Default none. */
  environmentOverrides?: string[];
  /** How long RUN_JS code may run in the page. Default 5000 ms. */
  runJsTimeoutMs?: number;
  /** The speech servers (Settings) and the microphone's transcriber (`POST /api/voice/transcribe`). Default: none set. */
  voice?: DashboardVoice | undefined;
  /** Folder of the built page. Default `dist/page`. */
  pageDir?: string;
  logger?: Logger;
}

/** A running dashboard. */
export interface Dashboard extends HttpDashboard {
  /** Checks Ollama now (sharing a check already under way) and tells the open pages if it changed. */
  checkOllama(): Promise<OllamaStatus>;
  /** The scheduler, when it runs in this process. */
  scheduler: Scheduler | undefined;
}
