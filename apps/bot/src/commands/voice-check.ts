import { maskUrl } from '@macstats/core/internal';
import type { VoiceError } from '@macstats/voice';
import type { AppConfig } from '../app-config.js';
import type { Check } from './doctor-checks.js';

/** Longest wait for one speech server in `doctor`: a model loading on first use takes a while. */
const CHECK_TIMEOUT_MS = 30_000;

/**
 * One second of a 440 Hz tone at 16 kHz, as WAV: every transcription server takes WAV, and a
 * tone is not silence, so it reaches the server (which may hear nothing in it; any `{ text }` is
 * an answer).
 */
async function oneSecondClip(): Promise<Uint8Array> {
  const { encodeWav } = await import('@macstats/voice');
  const rate = 16_000;
  return encodeWav(
    Float32Array.from({ length: rate }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / rate)),
    rate,
  );
}

function failure(error: unknown, setting: string): Check {
  // Every voice error's message is one sentence; anything else says what it is.
  const sentence = String((error as VoiceError | Error | undefined)?.message ?? error);
  return {
    status: 'fail',
    text: sentence,
    fix: `start that server, or check ${setting} and ${setting.replace('BASE_URL', 'MODEL')}`,
  };
}

/** Each `TRANSCRIBE_BASE_URL` server transcribes a one-second clip with `TRANSCRIBE_MODEL`. */
export async function checkTranscription(config: AppConfig): Promise<Check[]> {
  const settings = config.voice.transcribe;
  if (settings === undefined)
    return [{ status: 'skip', text: 'Transcription: no TRANSCRIBE_BASE_URL, so voice notes are not heard' }];
  const { createTranscriber } = await import('@macstats/voice');
  const clip = await oneSecondClip();
  return Promise.all(
    settings.baseUrls.map(async (baseUrl): Promise<Check> => {
      const transcriber = createTranscriber({
        hosts: [{ baseUrl, apiKey: settings.apiKey }],
        model: settings.model,
        requestTimeoutMs: CHECK_TIMEOUT_MS,
      });
      try {
        await transcriber.transcribe({ bytes: clip, name: 'doctor.wav' });
        return { status: 'ok', text: `Transcription at ${maskUrl(baseUrl)} answers with ${settings.model}` };
      } catch (error) {
        return failure(error, 'TRANSCRIBE_BASE_URL');
      } finally {
        transcriber.close();
      }
    }),
  );
}

/** Each `SPEAK_BASE_URL` server speaks a word as Ogg Opus with `SPEAK_MODEL` and `SPEAK_VOICE`. */
export async function checkSpeech(config: AppConfig): Promise<Check[]> {
  const settings = config.voice.speak;
  if (settings === undefined)
    return [{ status: 'skip', text: 'Speech: no SPEAK_BASE_URL, so replies are not spoken' }];
  const { createSpeaker } = await import('@macstats/voice');
  return Promise.all(
    settings.baseUrls.map(async (baseUrl): Promise<Check> => {
      const speaker = createSpeaker({
        hosts: [{ baseUrl, apiKey: settings.apiKey }],
        model: settings.model,
        voice: settings.voice,
        requestTimeoutMs: CHECK_TIMEOUT_MS,
      });
      try {
        const reply = await speaker.speak('OK.');
        return {
          status: 'ok',
          text: `Speech at ${maskUrl(baseUrl)} speaks with ${settings.model} (${settings.voice}): ${reply.durationSecs.toFixed(1)} s of Ogg Opus`,
        };
      } catch (error) {
        return failure(error, 'SPEAK_BASE_URL');
      } finally {
        speaker.close();
      }
    }),
  );
}
