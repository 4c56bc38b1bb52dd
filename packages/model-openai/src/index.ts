export type { CheckOpenAiOptions, OpenAiCheck } from './check-openai.js';
export { checkOpenAi } from './check-openai.js';
export { OPENAI_MODEL_DEFAULTS } from './defaults.js';
export type { OpenAiErrorCode, OpenAiErrorContext } from './openai-errors.js';
export { describeOpenAiError, toOpenAiError } from './openai-errors.js';
export type { OpenAiChatModel, OpenAiModelOptions } from './openai-model.js';
export { createOpenAiModel } from './openai-model.js';
export type { OpenAiServerModel } from './server-info.js';
