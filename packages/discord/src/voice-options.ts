import type { DailyTokenBudget } from '@macstats/core';

/** One audio file a message carries, as given to {@link DiscordTranscribe}. */
export interface DiscordAudio {
  bytes: Uint8Array;
  /** The attachment's file name (`voice-message.ogg`). */
  name: string;
  /** Its media type (`audio/ogg`). */
  contentType: string;
}

/**
 * Turns one audio file into text (`@macstats/voice`'s `createTranscriber(...).transcribe` fits).
 * Rejects with an error whose message is one sentence a user can read ("The transcription server
 * at … did not answer."); the bot shows it to the asker.
 */
export type DiscordTranscribe = (
  audio: DiscordAudio,
  options: { signal: AbortSignal },
) => Promise<{ text: string; tokens?: TranscriptTokens | undefined }>;

/** Tokens a transcription server reported for one transcript (OpenAI's `usage`). */
export interface TranscriptTokens {
  input?: number | null | undefined;
  output?: number | null | undefined;
  total?: number | null | undefined;
}

/** The tokens to count for a transcript: its total, else its input and output. */
export function transcriptTokens(tokens: TranscriptTokens | undefined): number {
  if (tokens === undefined) return 0;
  return tokens.total ?? (tokens.input ?? 0) + (tokens.output ?? 0);
}

/** A spoken reply: Ogg Opus and what Discord's voice message needs beside it. */
export interface DiscordSpeech {
  /** Ogg Opus. */
  bytes: Uint8Array;
  /** Its length in seconds (`duration_secs`). */
  durationSecs: number;
  /** Discord's waveform: base64 of up to 256 bytes, one loudness value each. */
  waveform: string;
  /** The part of the text spoken; the rest (`restText`) is only in the text answer. */
  spokenText?: string;
  restText?: string;
}

/**
 * Speaks a reply's text (`@macstats/voice`'s `createSpeaker(...).speak` fits). Rejects with an
 * error whose message is one sentence; the text answer is posted either way.
 */
export type DiscordSpeak = (text: string, options: { signal: AbortSignal }) => Promise<DiscordSpeech>;

/**
 * The daily token budget a voice note's transcript counts against (core's `DailyTokenBudget`
 * fits): checked before a voice note is transcribed, a spent budget refusing it with the sentence
 * a typed message would get, and the tokens the server reported counted after.
 */
export type TranscriptBudget = Pick<DailyTokenBudget, 'check' | 'count'>;

/** When a reply is also spoken: never, to a voice note, or to every message. */
export type SpeakReplies = 'off' | 'voice' | 'always';

/** Options of {@link createDiscordBot} for voice notes in and spoken replies out. */
export interface DiscordVoiceOptions {
  /**
   * Transcribes voice messages and audio attachments, which are then answered as if typed.
   * Default: none; a voice note gets one sentence saying no transcription server is set up.
   */
  transcribe?: DiscordTranscribe | undefined;
  /**
   * Tells a rejection of `transcribe` about the file itself (corrupt, unsupported, silent: sending
   * it again would not help) from one about the server (down, slow), which the asker is told to
   * retry by replying to the voice note (`@macstats/voice`'s `isClipProblem` fits). Default: none is.
   */
  isFileProblem?: ((error: unknown) => boolean) | undefined;
  /** Speaks replies, posted as a Discord voice message beside the text. Default: none. */
  speak?: DiscordSpeak | undefined;
  /**
   * When replies are spoken (with `speak`): `off`, `voice` (a voice note's answer), `always`.
   * `discord_channels.json`'s `speak_replies` overrides it per channel. Default `off`.
   */
  speakReplies?: SpeakReplies | undefined;
  /**
   * Start an answer to a voice note with what was heard, quoted, so the asker can see it.
   * `discord_channels.json`'s `quote_transcripts` overrides it per channel. Default false.
   */
  quoteTranscripts?: boolean | undefined;
  /**
   * The daily token budget transcripts count against, under the channel and the agent that
   * answers there (as the answers' own tokens). Default: none (nothing counted).
   */
  tokenBudget?: TranscriptBudget | undefined;
  /** Largest audio file, in bytes, checked from the attachment's size before downloading. Default 8 MiB. */
  maxAudioBytes?: number | undefined;
  /** Longest voice message, in seconds, checked from its `duration_secs`. Default 300. */
  maxAudioSeconds?: number | undefined;
  /** Where audio is downloaded from. Default: `imageOrigins` (Discord's CDN and media proxy). */
  audioOrigins?: readonly string[] | undefined;
}
