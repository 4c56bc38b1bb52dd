/** The model settings the apps read besides core's keys; see docs/models.md. */
export const MODEL_CONFIG_KEYS = [
  'MODEL_PROVIDER',
  'OPENAI_BASE_URL',
  'OPENAI_API_KEY',
  'OPENAI_MODEL',
] as const;

/** Which kind of server answers: Ollama, or an OpenAI-compatible one. */
export type ModelProvider = 'ollama' | 'openai';

/** Reads `MODEL_PROVIDER`; anything but `ollama` or `openai` is one warning and Ollama. */
export function parseModelProvider(text: string | undefined): { value: ModelProvider; warning?: string } {
  const value = text?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'ollama') return { value: 'ollama' };
  if (value === 'openai') return { value: 'openai' };
  return {
    value: 'ollama',
    warning: `MODEL_PROVIDER="${text}" is not a provider: use ollama or openai; using ollama.`,
  };
}
