/** The voice settings, as `.config.env` and the environment spell them (API.md, "Voice (apps)"). */
export const VOICE_SETTING_KEYS = [
  'TRANSCRIBE_BASE_URL',
  'TRANSCRIBE_MODEL',
  'TRANSCRIBE_API_KEY',
  'SPEAK_BASE_URL',
  'SPEAK_MODEL',
  'SPEAK_VOICE',
  'SPEAK_API_KEY',
  'SPEAK_REPLIES',
] as const;

/** When the bot answers with a voice message as well as text. */
export type SpeakReplies = 'off' | 'voice' | 'always';

/** One kind of speech server: its addresses (several form a pool), model and key. */
export interface VoiceServerSettings {
  /** The API bases, each usually ending in `/v1`. */
  baseUrls: string[];
  model: string;
  apiKey: string | undefined;
}

/** What {@link readVoiceSettings} read. */
export interface VoiceSettings {
  /** `TRANSCRIBE_*`; undefined when `TRANSCRIBE_BASE_URL` is unset (voice notes are then not heard). */
  transcribe: VoiceServerSettings | undefined;
  /** `SPEAK_*`; undefined when `SPEAK_BASE_URL` is unset (nothing is spoken). */
  speak: (VoiceServerSettings & { voice: string }) | undefined;
  /** `SPEAK_REPLIES`: `off` (default), `voice` (a voice note is answered with a voice message too), `always`. */
  speakReplies: SpeakReplies;
  /** One sentence per value that could not be used. */
  warnings: string[];
}

/** Defaults of the voice settings: the model names OpenAI and whisper.cpp's server take. */
export const VOICE_SETTING_DEFAULTS = {
  transcribeModel: 'whisper-1',
  speakModel: 'tts-1',
  speakVoice: 'alloy',
} as const;

function readBaseUrls(key: string, text: string | undefined, warnings: string[]): string[] {
  const urls: string[] = [];
  for (const entry of (text ?? '').split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    if (!/^https?:\/\/[^/\s]+/i.test(entry)) {
      warnings.push(
        `${key} entry "${entry}" is not an http(s) URL such as http://127.0.0.1:8000/v1; it is left out.`,
      );
      continue;
    }
    if (!urls.includes(entry)) urls.push(entry);
  }
  return urls;
}

/**
 * Reads the voice settings. `TRANSCRIBE_BASE_URL` and `SPEAK_BASE_URL` take one address or several
 * separated by commas (a pool, as `OLLAMA_HOSTS`); models default to `whisper-1` and `tts-1`, the
 * voice to `alloy`. A bad value is one warning: the address is left out, `SPEAK_REPLIES` is `off`.
 *
 * @example
 * const voice = readVoiceSettings(config.get);
 * if (voice.transcribe) createTranscriber({ hosts: voice.transcribe.baseUrls.map((baseUrl) => ({ baseUrl })), model: voice.transcribe.model });
 */
export function readVoiceSettings(get: (key: string) => string | undefined): VoiceSettings {
  const warnings: string[] = [];
  const value = (key: string) => {
    const text = get(key)?.trim();
    return text ? text : undefined;
  };
  const transcribeUrls = readBaseUrls('TRANSCRIBE_BASE_URL', value('TRANSCRIBE_BASE_URL'), warnings);
  const speakUrls = readBaseUrls('SPEAK_BASE_URL', value('SPEAK_BASE_URL'), warnings);
  const replies = (value('SPEAK_REPLIES') ?? 'off').toLowerCase();
  const speakReplies: SpeakReplies = replies === 'voice' || replies === 'always' ? replies : 'off';
  if (replies !== speakReplies)
    warnings.push(
      `SPEAK_REPLIES="${value('SPEAK_REPLIES')}" is not off, voice or always; replies are not spoken.`,
    );
  if (speakReplies !== 'off' && speakUrls.length === 0)
    warnings.push(
      `SPEAK_REPLIES=${speakReplies} needs SPEAK_BASE_URL, a speech server; replies are not spoken.`,
    );
  return {
    transcribe:
      transcribeUrls.length > 0
        ? {
            baseUrls: transcribeUrls,
            model: value('TRANSCRIBE_MODEL') ?? VOICE_SETTING_DEFAULTS.transcribeModel,
            apiKey: value('TRANSCRIBE_API_KEY'),
          }
        : undefined,
    speak:
      speakUrls.length > 0
        ? {
            baseUrls: speakUrls,
            model: value('SPEAK_MODEL') ?? VOICE_SETTING_DEFAULTS.speakModel,
            voice: value('SPEAK_VOICE') ?? VOICE_SETTING_DEFAULTS.speakVoice,
            apiKey: value('SPEAK_API_KEY'),
          }
        : undefined,
    speakReplies,
    warnings,
  };
}
