/** Every default of {@link createDiscordBot}, in one place. */
export const DISCORD_BOT_DEFAULTS = {
  /** Discord's API base, without the version. */
  apiUrl: 'https://discord.com/api',
  statusIntervalMs: 1500,
  /** Discord's message limit. */
  maxReplyChars: 2000,
  errorMessage: 'Sorry, something went wrong while answering.',
  /** Added to the error message when the model could not be reached (the original app's words). */
  unreachableHint: '(Is Ollama configured?)',
  timeoutMessage: 'Sorry, that took too long to answer.',
  emptyAnswerMessage: 'The model gave an empty answer.',
  allowBots: false,
  answerTimeoutMs: 300_000,
  /** Discord shows "typing…" for about 10 seconds; renew before it fades. */
  typingIntervalMs: 8000,
  /** An answer ready within a second is posted without a typing request (one request, not two). */
  typingDelayMs: 1000,
  /**
   * How long Discord's nonce is trusted to stop a repeated post. Discord keeps it "a few minutes";
   * a delivery older than this searches the channel for its parts before posting.
   */
  nonceWindowMs: 60_000,
  seenMessageLimit: 1000,
  /** How long `stop()` lets answers in flight finish before aborting them: 0, abort at once. */
  stopGraceMs: 0,
  /** Status lines are cut to this many characters. */
  maxStatusChars: 300,
  /** A tool's argument is cut to this many characters in the status line. */
  maxStatusArgumentChars: 80,
  /** What the asker reads after stopping an answer. */
  stoppedMessage: 'Stopped.',
  /** What memory keeps in place of the answer the asker stopped. */
  stoppedNote: '(The user stopped this answer before it was given.)',
  /** After a re-identify or restart: channels active and messages posted within 15 minutes. */
  catchUpMaxAgeMs: 15 * 60_000,
  /** After a re-identify or restart: missed messages fetched per channel. */
  catchUpMaxMessages: 50,
  /** Rapid messages from one asker in one channel within 2 s, before an answer starts, are one turn. */
  mergeWindowMs: 2000,
  /** Earlier messages of a reply chain given to the model. */
  replyChainLimit: 5,
  /** Most images per answer, and the largest, in bytes. */
  maxImages: 4,
  maxImageBytes: 8 * 1024 * 1024,
  /** Where images are downloaded from: Discord's CDN and media proxy. */
  imageOrigins: ['https://cdn.discordapp.com', 'https://media.discordapp.net'],
  /** The question for an image sent without words. */
  imageQuestion: 'What is in this image?',
  /** Spoken replies: off unless asked for (`voice` or `always`). */
  speakReplies: 'off',
  /** An answer to a voice note does not start by quoting what was heard unless asked. */
  quoteTranscripts: false,
  /** Largest audio file transcribed, in bytes (checked from the attachment's size first). */
  maxAudioBytes: 8 * 1024 * 1024,
  /** Longest voice message transcribed, in seconds (checked from its `duration_secs`). */
  maxAudioSeconds: 300,
  /** The status line while voice notes are transcribed. */
  transcribingStatus: 'Transcribing…',
  /** Register /ask, /reset (and /model with listModels) at start. */
  slashCommands: true,
} as const;
