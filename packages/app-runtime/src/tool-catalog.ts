import type { Tool } from '@macstats/core';

/**
 * What a tool list is for: the chat (Discord, `macstats ask -c`, the dashboard's chat), one
 * question outside any conversation (`macstats ask` without `-c`), a scheduled run answered by the model, a one-line step (a schedule that is one `NAME: argument` line, run
 * without the model), a durable task's step (`@macstats/tasks`, unattended like a scheduled run),
 * and the tools `macstats mcp` serves.
 */
export const TOOL_USES = ['chat', 'question', 'scheduled', 'step', 'task', 'mcp'] as const;

/** One of {@link TOOL_USES}. */
export type ToolUse = (typeof TOOL_USES)[number];

/** One tool of the catalog: when the settings build it, and which uses it is offered to. */
export interface CatalogEntry {
  /** The protocol name: `FETCH_URL`. */
  name: string;
  /** When it is built, in the words the docs' tool tables use (checked by a test). */
  when: string;
  /** Per use: `true` when offered to it, else the reason it is withheld from it. */
  uses: Readonly<Record<ToolUse, true | string>>;
}

/** The seed's sentence for RUN_JS where there is no page to run it in. */
export const RUN_JS_UNAVAILABLE = 'JavaScript execution is not available in this context.';

const UNATTENDED_SCHEDULER =
  'a page an unattended run fetched could plant schedules that would run later, unattended, with tools';
const UNATTENDED_MEMORY = 'a page an unattended run fetched could plant notes that later answers would read';
const NOT_A_STEP = 'only FETCH_URL and BRAVE_SEARCH run as a one-line step, without the model';
const NO_PAGE = 'it runs in the dashboard page, which only the chat has';
const NO_CONVERSATION = 'notes are kept per conversation, and a question asked without -c has none';
const UNATTENDED_TASK =
  'a page an unattended run fetched could plant tasks that would run later, unattended, with tools';

/** Offered to every use. */
const EVERYWHERE = {
  chat: true,
  question: true,
  scheduled: true,
  step: true,
  task: true,
  mcp: true,
} as const;
/** Offered to every use but the one-line step. */
const NOT_STEP = {
  chat: true,
  question: true,
  scheduled: true,
  step: NOT_A_STEP,
  task: true,
  mcp: true,
} as const;

/**
 * Every tool the apps offer, once, in the order they are offered. The bot, the dashboard,
 * `macstats tools` and `macstats mcp` build their lists from it (see `assembleTools`), and
 * {@link offeredTo} picks each use's tools from it.
 */
export const TOOL_CATALOG: readonly CatalogEntry[] = [
  { name: 'FETCH_URL', when: 'always', uses: EVERYWHERE },
  {
    name: 'BROWSER',
    when: '`ALLOW_BROWSER` is not off, playwright-core is installed and a Chromium is found (`BROWSER_CDP_URL`, `CHROMIUM_PATH` or `PATH`)',
    uses: NOT_STEP,
  },
  { name: 'WEB_SEARCH', when: '`SEARXNG_URL` is set', uses: NOT_STEP },
  { name: 'BRAVE_SEARCH', when: '`BRAVE_API_KEY` is set and `SEARXNG_URL` is not', uses: EVERYWHERE },
  { name: 'RUN_CMD', when: '`ALLOW_LOCAL_CMD` is not off', uses: NOT_STEP },
  {
    name: 'MCP',
    when: 'an MCP server is configured (`MCP_SERVER_STDIO`, `MCP_SERVER_URL` or `mcp.json`)',
    uses: { ...NOT_STEP, mcp: 'MCP, the client of other servers, is never served again' },
  },
  { name: 'METRICS', when: 'always', uses: NOT_STEP },
  {
    name: 'SCHEDULER',
    when: 'always',
    uses: {
      chat: true,
      question: true,
      scheduled: UNATTENDED_SCHEDULER,
      step: NOT_A_STEP,
      task: UNATTENDED_SCHEDULER,
      mcp: true,
    },
  },
  {
    name: 'MEMORY',
    when: 'always',
    uses: {
      chat: true,
      question: NO_CONVERSATION,
      scheduled: UNATTENDED_MEMORY,
      step: NOT_A_STEP,
      task: UNATTENDED_MEMORY,
      mcp: true,
    },
  },
  {
    name: 'TASK',
    when: 'always',
    uses: {
      chat: true,
      question: true,
      scheduled: UNATTENDED_TASK,
      step: NOT_A_STEP,
      // The runner binds one TASK to each step's task; the runtime offers the step that one.
      task: true,
      mcp: 'tasks are added with macstats task add, whose owner is the person at the terminal',
    },
  },
  {
    name: 'RUN_JS',
    when: 'in the dashboard page',
    uses: { chat: true, question: NO_PAGE, scheduled: NO_PAGE, step: NO_PAGE, task: NO_PAGE, mcp: NO_PAGE },
  },
];

/** Every tool name of the catalog, in its order. */
export const TOOL_NAMES: readonly string[] = TOOL_CATALOG.map((entry) => entry.name);

/** Tools offered only one at a time: with every setting on, the first is left out for the second. */
export const EXCLUSIVE_TOOL_NAMES: readonly string[] = ['BRAVE_SEARCH', 'WEB_SEARCH'];

/** The catalog's entry for `name`; undefined for a tool it does not know. */
export function catalogEntry(name: string): CatalogEntry | undefined {
  return TOOL_CATALOG.find((entry) => entry.name === name.toUpperCase());
}

/**
 * The tools of `tools` that `use` is offered, in the order given. A tool the catalog does not
 * know (an embedding app's own) is offered to the chat, a question and scheduled runs only.
 *
 * @example
 * createTaskExecutor({ tools: offeredTo('step', tools), agent: scheduledAgent });
 */
export function offeredTo(use: ToolUse, tools: readonly Tool[]): Tool[] {
  return tools.filter((tool) => {
    const entry = catalogEntry(tool.name);
    return entry ? entry.uses[use] === true : use === 'chat' || use === 'question' || use === 'scheduled';
  });
}
