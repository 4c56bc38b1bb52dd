import type { DiscordBotOptions } from '@macstats/discord';
import { isClipProblem } from '@macstats/voice';
import type { AppConfig } from './app-config.js';
import { createVoiceClients, type VoiceClients } from './voice-clients.js';

/** What the Discord bot gets from the voice settings, and how to stop the clients behind it. */
export interface DiscordVoiceWiring {
  options: Pick<DiscordBotOptions, 'transcribe' | 'isFileProblem' | 'speak' | 'speakReplies'>;
  /** Stops the speech clients' pools. */
  close(): void;
}

/**
 * The Discord bot's voice from `TRANSCRIBE_*`, `SPEAK_*` and `SPEAK_REPLIES`: voice notes are
 * transcribed by the configured transcriber (none set: the bot says it cannot listen), and
 * answers are spoken by the speaker as `SPEAK_REPLIES` asks (none set: never).
 *
 * @example
 * const voice = discordVoice(config, createVoiceClients(config.voice, { logger }));
 * createDiscordBot({ ...options, ...voice.options });
 */
export function discordVoice(
  config: Pick<AppConfig, 'voice'>,
  clients: VoiceClients = createVoiceClients(config.voice),
): DiscordVoiceWiring {
  const { transcriber, speaker } = clients;
  return {
    options: {
      ...(transcriber
        ? {
            transcribe: (audio, options) => transcriber.transcribe(audio, options),
            // A corrupt or unsupported file gets no "reply to it to try again".
            isFileProblem: isClipProblem,
          }
        : {}),
      ...(speaker ? { speak: (text, options) => speaker.speak(text, options) } : {}),
      speakReplies: speaker ? config.voice.speakReplies : 'off',
    },
    close: () => clients.close(),
  };
}
