import { type Agent, checkOllama, createAgent, type Logger, type OllamaCheck } from '@macstats/core';
import { type AppConfig, paths } from './app-config.js';
import { type AssembledTools, assembleTools } from './assemble-tools.js';

/** The agent with its tools, ready to answer. */
export interface Runtime {
  agent: Agent;
  tools: AssembledTools;
  ollama: OllamaCheck;
  close(): Promise<void>;
}

/**
 * Checks Ollama, picks the model (`OLLAMA_MODEL` or the first suitable one listed), assembles
 * the tools and makes the agent. Resolves even when Ollama is down: the agent then answers
 * with the sentence that names the fix, and `ollama.problem` says it once for the log.
 */
export async function createRuntime(
  config: AppConfig,
  logger: Logger,
  signal?: AbortSignal,
): Promise<Runtime> {
  const ollama = await checkOllama({
    host: config.ollamaHost,
    ...(config.ollamaModel ? { model: config.ollamaModel } : {}),
    ...(signal ? { signal } : {}),
  });
  if (ollama.problem) logger.warn({ host: ollama.host }, ollama.problem);
  const tools = await assembleTools(config, { logger, ...(signal ? { signal } : {}) });
  for (const problem of tools.problems) logger.warn({}, problem);
  const model = config.ollamaModel ?? ollama.model ?? 'llama3.2';
  const agent = createAgent({
    ollama: { host: config.ollamaHost, model },
    tools: tools.tools,
    logger,
    memory: { dir: paths(config).sessions },
  });
  return {
    agent,
    tools,
    ollama,
    async close() {
      await agent.close();
      await tools.close();
    },
  };
}
