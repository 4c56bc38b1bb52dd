import type { Logger } from '@macstats/core';
import type { DiscordBotOptions } from '@macstats/discord';
import type { VoiceClients, VoiceEvent } from '@macstats/voice';
import type { AppConfig } from './app-config.js';

/** What the Discord bot gets from the voice settings, and how to stop the clients behind it. */
export interface DiscordVoiceWiring {
  options: Pick<DiscordBotOptions, 'transcribe' | 'isFileProblem' | 'speak' | 'speakReplies'>;
  /** Stops the speech clients' pools. */
  close(): void;
}

/**
 * The Discord bot's voice from `TRANSCRIBE_*`, `SPEAK_*` and `SPEAK_REPLIES`: voice notes are
 * transcribed by the configured transcriber (none set: the bot says it cannot listen), and
 * answers are spoken by the speaker as `SPEAK_REPLIES` asks (none set: never). `isClipProblem`
 * is `@macstats/voice`'s, passed in so this file loads nothing itself.
 *
 * @example
 * const voice = discordVoice(config, createVoiceClients(config.voice, { logger }), isClipProblem);
 * createDiscordBot({ ...options, ...voice.options });
 */
export function discordVoice(
  config: Pick<AppConfig, 'voice'>,
  clients: VoiceClients,
  isClipProblem: (error: unknown) => boolean,
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

/**
 * {@link discordVoice} for `macstats start`: undefined when no speech server is set, so the bot
 * without voice never loads `@macstats/voice`; `onEvent` counts each call for `/metrics`.
 */
export async function loadDiscordVoice(
  config: Pick<AppConfig, 'voice'>,
  logger: Logger,
  onEvent?: (event: VoiceEvent) => void,
): Promise<DiscordVoiceWiring | undefined> {
  if (!config.voice.transcribe && !config.voice.speak) return undefined;
  const { createVoiceClients, isClipProblem } = await import('@macstats/voice');
  const clients = createVoiceClients(config.voice, { logger, ...(onEvent ? { onEvent } : {}) });
  return discordVoice(config, clients, isClipProblem);
}
