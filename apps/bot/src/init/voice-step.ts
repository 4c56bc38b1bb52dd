import { VOICE_SETTING_DEFAULTS } from '@macstats/app-config';
import { type InitContext, setValue, validateUrl } from './init-context.js';

/**
 * Voice notes, optional: an OpenAI-compatible transcription server's address and model
 * (`TRANSCRIBE_BASE_URL`, `TRANSCRIBE_MODEL`; see docs/voice.md). `--transcribe-url` and
 * `--transcribe-model` answer it up front.
 */
export async function voiceStep(context: InitContext): Promise<void> {
  const { ui, flags, current } = context;
  const had = current['TRANSCRIBE_BASE_URL'];
  const kind = flags.transcribeUrl
    ? 'set'
    : await ui.select(
        'Voice notes (optional): a transcription server',
        [
          ...(had ? [{ value: 'keep' as const, label: 'Keep the current one', hint: had }] : []),
          {
            value: 'set' as const,
            label: 'An OpenAI-compatible server',
            hint: 'speaches, whisper.cpp, LocalAI, OpenAI (docs/voice.md)',
          },
          { value: 'none' as const, label: 'None' },
        ],
        had ? 'keep' : 'none',
      );
  if (kind === 'keep') return;
  if (kind === 'none') {
    if (ui.interactive) {
      setValue(context, 'TRANSCRIBE_BASE_URL', undefined);
      setValue(context, 'TRANSCRIBE_MODEL', undefined);
    }
    return;
  }
  const url =
    flags.transcribeUrl ??
    (await ui.text('Transcription server address (its API base, usually ending in /v1)', {
      initial: had ?? 'http://127.0.0.1:8000/v1',
      validate: validateUrl,
    }));
  setValue(context, 'TRANSCRIBE_BASE_URL', url.trim().replace(/\/+$/, ''));
  const model =
    flags.transcribeModel ??
    (flags.transcribeUrl
      ? current['TRANSCRIBE_MODEL']
      : await ui.text('Transcription model', {
          initial: current['TRANSCRIBE_MODEL'] ?? VOICE_SETTING_DEFAULTS.transcribeModel,
          validate: (value) => (value.trim() ? undefined : 'A model name, e.g. whisper-1'),
        }));
  if (model !== undefined) setValue(context, 'TRANSCRIBE_MODEL', model.trim());
}
