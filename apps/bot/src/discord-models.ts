import { checkModelServer, createChatModel } from '@macstats/app-runtime';
import { isEmbeddingModel } from '@macstats/core';
import type { AppConfig } from './app-config.js';
import type { Runtime } from './runtime.js';

/**
 * What the Discord bot asks about models: the chat models the server has (for `/model`), what a
 * model can do (images go only to a vision model), and an installed vision model to name when the
 * current one cannot see. Each asks the model server (Ollama or OpenAI-compatible) when needed;
 * capabilities are cached per model.
 */
export function discordModelOptions(config: AppConfig, runtime: Runtime) {
  const configured = config.modelProvider === 'openai' ? config.openaiModel : config.ollamaModel;
  const probe = createChatModel(config, runtime.server.model ?? configured ?? '');
  const listModels = async () =>
    (await checkModelServer(config)).models.filter((name) => !isEmbeddingModel(name));
  return {
    listModels,
    capabilities: (model: string | undefined) => probe.capabilities(model ? { model } : {}),
    visionModel: async () => {
      for (const name of await listModels()) {
        const capabilities = await probe.capabilities({ model: name }).catch(() => undefined);
        if (capabilities?.vision) return name;
      }
      return undefined;
    },
  };
}
