/** One kind of speech server as Settings shows it: addresses without credentials, the model. */
export interface SpeechServerView {
  /** The API bases, user name, password and query left out. */
  servers: string[];
  model: string;
  /** Whether a key is set (the key itself never leaves the server). */
  keySet: boolean;
  /** The speaker's voice. */
  voice?: string;
}

/** `GET /api/voice`: the speech servers from the settings. */
export interface VoiceStatus {
  transcribe: SpeechServerView | null;
  speak: SpeechServerView | null;
  /** `SPEAK_REPLIES`. */
  speakReplies: 'off' | 'voice' | 'always';
}

/** `POST /api/voice/transcribe`: what was heard. */
export interface TranscribeResult {
  text: string;
}
