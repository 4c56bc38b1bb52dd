import type { VoiceSettings } from '@macstats/app-config';
import type { Logger } from '@macstats/core';
import {
  createSpeaker,
  createTranscriber,
  type Speaker,
  type Transcriber,
  type VoiceEvent,
} from '@macstats/voice';

/** The speech clients the settings ask for; each undefined when its server is not set. */
export interface VoiceClients {
  transcriber: Transcriber | undefined;
  speaker: Speaker | undefined;
  /** Stops both pools' background checks. */
  close(): void;
}

/**
 * The transcriber (`TRANSCRIBE_*`) and speaker (`SPEAK_*`) of the app, over every address each
 * setting lists. `onEvent` feeds the `/metrics` counters.
 *
 * @example
 * const voice = createVoiceClients(config.voice, { logger });
 * const { text } = await voice.transcriber?.transcribe({ bytes }, { signal });
 */
export function createVoiceClients(
  settings: VoiceSettings,
  options: { logger?: Logger; onEvent?: (event: VoiceEvent) => void } = {},
): VoiceClients {
  const { transcribe, speak } = settings;
  const transcriber = transcribe
    ? createTranscriber({
        hosts: transcribe.baseUrls.map((baseUrl) => ({ baseUrl, apiKey: transcribe.apiKey })),
        model: transcribe.model,
        logger: options.logger,
        onEvent: options.onEvent,
      })
    : undefined;
  const speaker = speak
    ? createSpeaker({
        hosts: speak.baseUrls.map((baseUrl) => ({ baseUrl, apiKey: speak.apiKey })),
        model: speak.model,
        voice: speak.voice,
        logger: options.logger,
        onEvent: options.onEvent,
      })
    : undefined;
  return {
    transcriber,
    speaker,
    close: () => {
      transcriber?.close();
      speaker?.close();
    },
  };
}
