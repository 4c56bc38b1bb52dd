import type { Logger, TokenBudgetAccount } from '@macstats/core';
import { fetchAttachment } from './attachment-fetch.js';
import { type AudioCandidate, audioCandidates } from './audio-input.js';
import type { DiscordBotFeatureOptions } from './bot-feature-options.js';
import type { Turn } from './decide-message.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { discordError } from './discord-errors.js';
import {
  type DiscordSpeak,
  type DiscordTranscribe,
  type SpeakReplies,
  type TranscriptBudget,
  transcriptTokens,
} from './voice-options.js';

/** Longest piece of a transcription error shown to the asker. */
const MAX_PROBLEM_CHARS = 300;

/** The bot's voice settings, defaults filled in. */
export interface VoiceSupport {
  transcribe: DiscordTranscribe | undefined;
  isFileProblem: (error: unknown) => boolean;
  speak: DiscordSpeak | undefined;
  speakReplies: SpeakReplies;
  quoteTranscripts: boolean;
  budget: TranscriptBudget | undefined;
  maxBytes: number;
  maxSeconds: number;
  allowedOrigins: readonly string[];
  /** Transcripts already heard, by attachment (its link without the signature): a voice note in a reply chain is heard once. */
  heard: Map<string, string>;
}

/** Transcripts kept for voice notes met again in reply chains. */
const HEARD_LIMIT = 200;

/** An attachment's identity: its link without the query, which Discord re-signs. */
function attachmentKey(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

/** The voice settings from the bot's options. */
export function voiceSupport(options: DiscordBotFeatureOptions): VoiceSupport {
  return {
    transcribe: options.transcribe,
    isFileProblem: options.isFileProblem ?? (() => false),
    speak: options.speak,
    speakReplies: options.speakReplies ?? DISCORD_BOT_DEFAULTS.speakReplies,
    quoteTranscripts: options.quoteTranscripts ?? DISCORD_BOT_DEFAULTS.quoteTranscripts,
    budget: options.tokenBudget,
    maxBytes: options.maxAudioBytes ?? DISCORD_BOT_DEFAULTS.maxAudioBytes,
    maxSeconds: options.maxAudioSeconds ?? DISCORD_BOT_DEFAULTS.maxAudioSeconds,
    allowedOrigins: (options.audioOrigins ?? options.imageOrigins ?? DISCORD_BOT_DEFAULTS.imageOrigins).map(
      (origin) => new URL(origin).origin,
    ),
    heard: new Map(),
  };
}

/**
 * What listening to one audio file gave: its text, or the one sentence saying why not (`spent`:
 * the daily token budget, which refuses the turn's other files too).
 */
export type Heard = { text: string } | { problem: string; spent?: true };

/** A size as people say it: `11 bytes`, `40 KB`, `8 MB`. */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}
const sentence = (text: string) => {
  const trimmed = text.trim().slice(0, MAX_PROBLEM_CHARS);
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};

/**
 * Listens to one audio file: checks its declared size and length before downloading it (the
 * signed link with its query, from an allowed origin only), then transcribes it. Every failure
 * but the asker's own stop becomes one sentence; the message is not retried, and when the server
 * failed (not the file) the sentence says how to try again.
 */
export async function listen(
  audio: AudioCandidate,
  voice: VoiceSupport,
  signal: AbortSignal,
  logger: Logger,
  who: TokenBudgetAccount,
): Promise<Heard> {
  const name = `"${audio.name}"`;
  const key = attachmentKey(audio.url);
  const known = voice.heard.get(key);
  if (known !== undefined) return { text: known };
  if (!voice.transcribe)
    return { problem: "I can't listen to voice messages here: no transcription server is set up." };
  if (audio.size > voice.maxBytes)
    return {
      problem: `${name} is ${sizeText(audio.size)}; I transcribe audio up to ${sizeText(voice.maxBytes)}.`,
    };
  if (audio.durationSecs !== undefined && audio.durationSecs > voice.maxSeconds)
    return {
      problem: `${name} is ${Math.round(audio.durationSecs)} seconds long; I transcribe up to ${voice.maxSeconds} seconds.`,
    };
  // A spent budget refuses the transcription with the sentence a typed message gets.
  const refusal = await voice.budget?.check(who);
  if (refusal) return { problem: refusal.message, spent: true };
  let bytes: Uint8Array;
  let contentType: string;
  try {
    ({ bytes, contentType } = await fetchAttachment(audio.url, {
      allowedOrigins: voice.allowedOrigins,
      maxBytes: voice.maxBytes,
      signal,
      noun: 'audio file',
      accepts: (type) => type.startsWith('audio/') || type === 'application/ogg',
      acceptedTypes: 'audio',
      refuse: (message) => discordError('DISCORD_AUDIO_REFUSED', message),
    }));
  } catch (error) {
    if (signal.aborted) throw error;
    logger.warn({ err: error, name: audio.name }, 'audio could not be downloaded');
    return { problem: `I couldn't download ${name} from Discord; send it again to retry.` };
  }
  try {
    const { text, tokens } = await voice.transcribe({ bytes, name: audio.name, contentType }, { signal });
    await voice.budget?.count(who, transcriptTokens(tokens)).catch((error: unknown) => {
      logger.warn({ err: error, name: audio.name }, "a transcript's tokens could not be counted");
    });
    if (text.trim() === '') return { problem: `I heard nothing in ${name}.` };
    // Only what was heard is kept: a failure is tried again when the voice note comes up again.
    voice.heard.set(key, text.trim());
    if (voice.heard.size > HEARD_LIMIT) voice.heard.delete(voice.heard.keys().next().value ?? '');
    return { text: text.trim() };
  } catch (error) {
    if (signal.aborted) throw error;
    logger.warn({ err: error, name: audio.name }, 'audio could not be transcribed');
    const why = sentence((error as Error).message ?? String(error));
    // A file that cannot be heard stays so; a server that failed may answer later.
    const retry = voice.isFileProblem(error) ? '' : ' Reply to it to try again.';
    return { problem: `I couldn't transcribe ${name}: ${why}${retry}` };
  }
}

/** A turn's questions with its audio heard, what was heard, and the sentences for what was not. */
export interface TurnAudio {
  /** Each message's question with its transcripts after its typed text. */
  questions: string[];
  /** Every transcript, in order. */
  heard: string[];
  /** One sentence per file not heard. */
  problems: string[];
}

/**
 * Transcribes the audio of a turn's messages, each file in order; `onStart` is called once
 * before the first (the status shows "Transcribing…"). The asker's own voice note is the asker's
 * words: its transcript joins that message's question.
 */
export async function transcribeTurn(
  turn: Turn,
  voice: VoiceSupport,
  signal: AbortSignal,
  logger: Logger,
  who: TokenBudgetAccount,
  onStart: () => void,
): Promise<TurnAudio> {
  const result: TurnAudio = { questions: [...turn.questions], heard: [], problems: [] };
  let started = false;
  let spent = false;
  for (const [index, message] of turn.messages.entries()) {
    const texts: string[] = [];
    for (const audio of audioCandidates(message)) {
      if (!started) onStart();
      started = true;
      const heard = await listen(audio, voice, signal, logger, who);
      if ('text' in heard) texts.push(heard.text);
      else result.problems.push(heard.problem);
      // The budget's sentence once for the turn: the files after it would get the same.
      spent = 'spent' in heard;
      if (spent) break;
    }
    if (texts.length > 0) {
      result.heard.push(...texts);
      result.questions[index] = [turn.questions[index] ?? '', ...texts]
        .filter((text) => text !== '')
        .join('\n');
    }
    if (spent) break;
  }
  return result;
}

/** The first line quoting what was heard, cut short, on one line. */
export function quoteHeard(heard: readonly string[]): string {
  const text = heard.join(' ').replace(/\s+/g, ' ').trim();
  const cut = text.length > 300 ? `${text.slice(0, 300)}…` : text;
  return `> 🎙️ ${cut}`;
}
