/**
 * `@macstats/core/internal`: helpers the macstats packages share so each lives once. No semver
 * promise: a minor or patch release may change or remove any of these names. Applications should
 * import from `@macstats/core`.
 */
export { estimateTokens } from './agent/context-budget.js';
export { failedAnswer } from './agent/failed-answer.js';
export { estimateFixedPromptTokens } from './agent/prompt-size.js';
export { nextUtcMidnight, utcDay } from './budget/daily-token-budget.js';
export { FOLLOWABLE_LINKS, LINKS_PER_RESULT } from './containment/outside-links.js';
export { canonicalUrl, urlsIn } from './containment/urls.js';
export { lightFetch } from './ollama/light-fetch.js';
export type { OllamaErrorContext } from './ollama/ollama-errors.js';
export { describeOllamaError } from './ollama/ollama-errors.js';
export { looseKey } from './parser/tool-syntax.js';
export type { WithSpanOptions } from './telemetry/spans.js';
export { errorTypeOf, recordSpanError, withSpan } from './telemetry/spans.js';
export { formatDuration } from './util/format-duration.js';
export { loadUndici } from './util/load-undici.js';
export { maskUrl, redactUrl } from './util/mask-url.js';
export { CONNECTION_LOST_CODES, errorCode, UNREACHABLE_CODES } from './util/network-errors.js';
export { oneLine } from './util/one-line.js';
export { dependencyMissing, importOptional } from './util/optional-dependency.js';
export { plural } from './util/plural.js';
export type { LoosePath } from './util/private-files.js';
export {
  appendPrivateFile,
  createPrivateFile,
  ensurePrivateDir,
  findLoosePaths,
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  tightenPrivateTree,
  writePrivateFile,
} from './util/private-files.js';
export { raceSignal } from './util/race-signal.js';
export { readTextIfPresent } from './util/read-if-present.js';
