/** Every default of `@macstats/voice`, in one place. */
export const VOICE_DEFAULTS = {
  /** Largest clip accepted, in bytes: 8 MiB, Discord's free upload limit of its time. */
  maxBytes: 8 * 1024 * 1024,
  /** Longest clip accepted, in seconds (checked where the clip is decoded in-process). */
  maxDurationSecs: 300,
  /**
   * A clip whose root-mean-square level is below this (samples in −1…1) is silent: about −54 dBFS,
   * under a quiet room's hiss through a phone microphone, far under speech (−30 to −10 dBFS).
   */
  silenceRms: 0.002,
  /** Sample rate of the WAV sent to transcription servers: what Whisper-family models take. */
  sampleRate: 16_000,
  /** Time limit of one transcription or speech request, in milliseconds. */
  requestTimeoutMs: 120_000,
  /** Longest text spoken in one reply, in characters; the rest is posted as text. */
  maxSpokenChars: 600,
  /** Voice asked of the speech server when none is configured (OpenAI's and Kokoro-compatible servers know it). */
  voice: 'alloy',
  /** Amplitude bytes in a Discord voice message's waveform. */
  waveformLength: 256,
} as const;
