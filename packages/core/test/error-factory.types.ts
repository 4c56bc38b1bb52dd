// Checked by `tsc` (the package's typecheck), never run: each `@ts-expect-error` below fails the
// build if the line after it compiles, so a misspelt or foreign error code cannot slip through.
import { errorFactory, type MacstatsError } from '../src/index.js';
import { ollamaError } from '../src/ollama/ollama-errors.js';

type FetchLikeCode = 'FETCH_BLOCKED' | 'FETCH_TOO_LARGE';
const fetchLikeError = errorFactory<FetchLikeCode>();

export const made: MacstatsError<FetchLikeCode> = fetchLikeError('FETCH_BLOCKED', 'blocked');
// @ts-expect-error: a misspelt code
fetchLikeError('FETCH_BLOKED', 'blocked');
// @ts-expect-error: another package's code
fetchLikeError('OLLAMA_TIMEOUT', 'slow');
// @ts-expect-error: the Ollama adapter's maker takes only its own codes
ollamaError('FETCH_BLOCKED', 'blocked');
// @ts-expect-error: a maker without its union takes no code at all
errorFactory()('ANYTHING', 'x');
