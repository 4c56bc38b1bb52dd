import type { Logger } from '@macstats/core';
import { createSpeaker, type Speaker } from './speaker.js';
import { createTranscriber, type Transcriber, type VoiceEvent } from './transcriber.js';

/** One kind of speech server as an app's settings name it: addresses (a pool), model, key. */
export interface VoiceServerConfig {
  baseUrls: readonly string[];
  model: string;
  apiKey?: string | undefined;
}

/**
 * The speech servers an app configured (`@macstats/app-config`'s `readVoiceSettings` returns this
 * shape); either side undefined when not set.
 */
export interface VoiceClientsConfig {
  transcribe?: VoiceServerConfig | undefined;
  speak?: (VoiceServerConfig & { voice?: string | undefined }) | undefined;
}

/** The clients the settings ask for; each undefined when its server is not set. */
export interface VoiceClients {
  transcriber: Transcriber | undefined;
  speaker: Speaker | undefined;
  /** Stops both pools' background checks. */
  close(): void;
}

/**
 * The transcriber and speaker of an app's settings, each over every address its setting lists.
 * `onEvent` feeds counters (`@macstats/observability`'s `recordVoice`).
 *
 * @example
 * const voice = createVoiceClients(readVoiceSettings(config.get), { logger, onEvent: metrics.recordVoice });
 * const heard = await voice.transcriber?.transcribe({ bytes }, { signal });
 */
export function createVoiceClients(
  config: VoiceClientsConfig,
  options: { logger?: Logger | undefined; onEvent?: ((event: VoiceEvent) => void) | undefined } = {},
): VoiceClients {
  const { transcribe, speak } = config;
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
