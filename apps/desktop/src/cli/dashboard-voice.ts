import { readVoiceSettings } from '@macstats/app-config';
import type { Logger } from '@macstats/core';
import { createTranscriber, type VoiceEvent } from '@macstats/voice';
import { type DashboardVoice, maskServerUrl } from '../server/voice-feature.js';

/**
 * The dashboard's voice from the settings (`TRANSCRIBE_*`, `SPEAK_*`, `SPEAK_REPLIES`, read as
 * the bot reads them): what Settings shows, and the microphone's transcriber over every
 * `TRANSCRIBE_BASE_URL` address, each call told to `onEvent`. `warnings` has one sentence per
 * value that could not be used.
 *
 * @example
 * const { voice, warnings } = dashboardVoice(config.setting, logger);
 * await startDashboard({ ..., voice });
 */
export function dashboardVoice(
  get: (key: string) => string | undefined,
  logger: Logger,
  /** Told of each transcription (`/metrics`' voice counters). */
  onEvent?: (event: VoiceEvent) => void,
): { voice: DashboardVoice; warnings: string[] } {
  const settings = readVoiceSettings(get);
  const { transcribe, speak } = settings;
  const transcriber = transcribe
    ? createTranscriber({
        hosts: transcribe.baseUrls.map((baseUrl) => ({ baseUrl, apiKey: transcribe.apiKey })),
        model: transcribe.model,
        logger,
        onEvent,
      })
    : undefined;
  return {
    voice: {
      status: {
        transcribe: transcribe
          ? {
              servers: transcribe.baseUrls.map(maskServerUrl),
              model: transcribe.model,
              keySet: !!transcribe.apiKey,
            }
          : null,
        speak: speak
          ? {
              servers: speak.baseUrls.map(maskServerUrl),
              model: speak.model,
              voice: speak.voice,
              keySet: !!speak.apiKey,
            }
          : null,
        speakReplies: settings.speakReplies,
      },
      ...(transcriber
        ? {
            transcribe: (audio, options) => transcriber.transcribe(audio, options),
            close: () => transcriber.close(),
          }
        : {}),
    },
    warnings: settings.warnings,
  };
}
