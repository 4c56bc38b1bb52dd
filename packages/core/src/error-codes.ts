import type { CoreOwnErrorCode } from './errors.js';
import type { OllamaErrorCode } from './ollama/ollama-errors.js';

/**
 * Codes of the errors core throws (each is in the README's error table). Apart from the base
 * error, which knows no adapter: this union sits above both.
 */
export type CoreErrorCode = CoreOwnErrorCode | OllamaErrorCode;
