import {
  type Agent,
  checkOllama,
  createAgent,
  createModelPool,
  createOllamaPoolMember,
  type Logger,
  type MemoryStore,
  type OllamaCheck,
} from '@macstats/core';
import type { ScheduleSource } from '@macstats/scheduler';
import { type AppConfig, paths } from './app-config.js';
import { type AssembledTools, assembleTools, RUN_JS_UNAVAILABLE } from './assemble-tools.js';
import { createModelResolver, withModel } from './model-resolver.js';
import { withNotes } from './with-notes.js';

/** The agent with its tools, ready to answer. */
export interface Runtime {
  agent: Agent;
  tools: AssembledTools;
  /** What Ollama said at start-up. */
  ollama: OllamaCheck;
  /** Ends the agent's background work, the metrics collector and the MCP servers. */
  close(): Promise<void>;
}

/**
 * Checks Ollama, assembles the tools and makes the agent. Resolves even when Ollama is down:
 * the agent then answers with the sentence that names the fix, `ollama.problem` says it once for
 * the log, and the model is picked again once Ollama is up (see `createModelResolver`).
 */
export async function createRuntime(
  config: AppConfig,
  logger: Logger,
  signal?: AbortSignal,
  shared: { scheduleSource?: ScheduleSource | undefined; memoryStore?: MemoryStore | undefined } = {},
): Promise<Runtime> {
  const [checked, assembled] = await Promise.allSettled([
    checkOllama({
      host: config.ollamaHost,
      ...(config.ollamaModel ? { model: config.ollamaModel } : {}),
      ...(signal ? { signal } : {}),
    }),
    assembleTools(config, { logger, scheduleSource: shared.scheduleSource }),
  ]);
  if (assembled.status === 'rejected') throw assembled.reason;
  const tools = assembled.value;
  if (checked.status === 'rejected') {
    // Only an abort gets here: end the MCP servers already started.
    await tools.close();
    throw checked.reason;
  }
  const ollama = checked.value;
  if (ollama.problem) logger.warn({ host: ollama.host }, ollama.problem);
  for (const problem of tools.problems) logger.warn({}, problem);
  const model = createModelResolver({
    ollamaHost: config.ollamaHost,
    configured: config.ollamaModel,
    initial: ollama,
  });
  // Several hosts: one pool (loaded first, then least busy; a host that fails is routed around).
  const pool =
    config.ollamaHosts.length > 1
      ? createModelPool({
          members: config.ollamaHosts.map((host) => createOllamaPoolMember({ host, model: model.known })),
          logger,
        })
      : undefined;
  const agent = createAgent({
    ...(pool ? { model: pool } : { ollama: { host: config.ollamaHost, model: model.known } }),
    tools: tools.tools,
    logger,
    // DATABASE_URL: conversations continue on whichever host answers next.
    memory: shared.memoryStore ? { store: shared.memoryStore } : { dir: paths(config).sessions },
    unavailableTools: { RUN_JS: RUN_JS_UNAVAILABLE },
  });
  return {
    agent: withNotes(
      withModel(agent, () => model.current()),
      tools.notes,
    ),
    tools,
    ollama,
    async close() {
      pool?.close();
      await Promise.allSettled([agent.close(), tools.close()]);
    },
  };
}
