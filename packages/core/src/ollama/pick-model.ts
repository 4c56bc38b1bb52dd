/** A model as `pickModel` sees it: a name, or a name with what `/api/show` and `/api/tags` say. */
export type ModelDescription =
  | string
  | { name: string; capabilities?: readonly string[]; family?: string; families?: readonly string[] };

const EMBEDDING_NAME = /(^|[/:_-])(embed|embedding|bge|minilm|e5|gte|rerank(er)?)([/:_-]|$)|embed/i;
const EMBEDDING_FAMILY = /bert/i;

/** True for an embedding (or reranking) model, which cannot chat. */
export function isEmbeddingModel(model: ModelDescription): boolean {
  if (typeof model === 'string') return EMBEDDING_NAME.test(model);
  if (model.capabilities?.includes('embedding') && !model.capabilities.includes('completion')) return true;
  if ([model.family, ...(model.families ?? [])].some((family) => family && EMBEDDING_FAMILY.test(family)))
    return true;
  return EMBEDDING_NAME.test(model.name);
}

/**
 * The first suitable chat model of a list (for when OLLAMA_MODEL is unset): embedding models are
 * skipped, and a model known to have the `tools` capability wins over one that is not.
 * Returns undefined when none fits.
 *
 * @example
 * pickModel(['nomic-embed-text:latest', 'gemma2:2b', { name: 'qwen2.5:7b', capabilities: ['completion', 'tools'] }]);
 * // 'qwen2.5:7b'
 */
export function pickModel(models: readonly ModelDescription[]): string | undefined {
  const chat = models.filter((model) => !isEmbeddingModel(model));
  const withTools = chat.find((model) => typeof model !== 'string' && model.capabilities?.includes('tools'));
  const chosen = withTools ?? chat[0];
  return chosen === undefined ? undefined : typeof chosen === 'string' ? chosen : chosen.name;
}

/** `llama3.2` and `llama3.2:latest` are the same model. */
export function sameModel(a: string, b: string): boolean {
  const full = (name: string) => (name.includes(':') ? name : `${name}:latest`);
  return full(a) === full(b);
}

/**
 * The one sentence for a model that a channel, a schedule or a setting names but the server does
 * not have, naming the ones it has.
 *
 * @example
 * modelNotInstalled('phi4:14b', ['llama3.2:3b'], 'schedule "news"');
 * // 'The model "phi4:14b" set for schedule "news" is not installed: the installed models are llama3.2:3b.'
 */
export function modelNotInstalled(model: string, installed: readonly string[], where?: string): string {
  const list = installed.length > 0 ? installed.join(', ') : 'none';
  return `The model "${model}"${where ? ` set for ${where}` : ''} is not installed: the installed models are ${list}.`;
}
