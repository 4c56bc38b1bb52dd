import type { ModelSettingNames } from '@macstats/core';

/**
 * The settings that fix a model server's problems, as the apps read them: core's and
 * model-openai's error sentences name them only when given these (libraries name no setting).
 * A pool's sentences name the list setting, which holds every host.
 */
export const MODEL_SETTING_NAMES = {
  ollama: { host: 'OLLAMA_HOST', model: 'OLLAMA_MODEL' },
  ollamaPool: { host: 'OLLAMA_HOSTS', model: 'OLLAMA_MODEL' },
  openai: { host: 'OPENAI_BASE_URL', model: 'OPENAI_MODEL', apiKey: 'OPENAI_API_KEY' },
  openaiPool: { host: 'OPENAI_BASE_URLS', model: 'OPENAI_MODEL', apiKey: 'OPENAI_API_KEY' },
} as const satisfies Record<string, ModelSettingNames>;
