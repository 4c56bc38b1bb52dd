import { errorFactory, MacstatsError } from '@macstats/core';

/** Codes of the errors `@macstats/voice` raises (each is in the README's error table). */
export type VoiceErrorCode =
  | 'VOICE_TOO_LARGE'
  | 'VOICE_TOO_LONG'
  | 'VOICE_EMPTY'
  | 'VOICE_SILENT'
  | 'VOICE_UNSUPPORTED_FORMAT'
  | 'VOICE_CORRUPT'
  | 'VOICE_UNREACHABLE'
  | 'VOICE_TIMEOUT'
  | 'VOICE_SERVER_REFUSED'
  | 'VOICE_BAD_RESPONSE'
  | 'INVALID_OPTION';

/** Makes this package's errors: the compiler takes only the codes of {@link VoiceErrorCode}. */
export const voiceError = errorFactory<VoiceErrorCode>();

/** A `MacstatsError` whose code is one of {@link VoiceErrorCode}; its message is one sentence for the user. */
export type VoiceError = MacstatsError<VoiceErrorCode>;

/** Whether `error` is a voice error (with `code` one of {@link VoiceErrorCode}). */
export function isVoiceError(error: unknown): error is VoiceError {
  return (
    MacstatsError.isInstance(error) && (error.code.startsWith('VOICE_') || error.code === 'INVALID_OPTION')
  );
}

/** The codes that mean the recording itself cannot be heard: sending it again would not help. */
const CLIP_PROBLEMS: ReadonlySet<string> = new Set([
  'VOICE_EMPTY',
  'VOICE_TOO_LARGE',
  'VOICE_TOO_LONG',
  'VOICE_SILENT',
  'VOICE_UNSUPPORTED_FORMAT',
  'VOICE_CORRUPT',
]);

/**
 * Whether `error` is about the recording itself (empty, too large or long, silent, of a format
 * this cannot take, corrupt) rather than the server (unreachable, slow, refusing): the first is
 * the sender's to fix, the second is worth trying again later.
 *
 * @example
 * catch (error) { reply(isClipProblem(error) ? error.message : `${error.message} Try again later.`); }
 */
export function isClipProblem(error: unknown): error is VoiceError {
  return isVoiceError(error) && CLIP_PROBLEMS.has(error.code);
}
