/** One `POST /v1/audio/transcriptions` the fake received. */
export interface FakeTranscriptionRecord {
  /** Every text field of the form (`model`, `language`, `prompt`, `response_format`…). */
  fields: Record<string, string>;
  model: string | undefined;
  /** The `file` part's name, declared type and bytes. */
  fileName: string | undefined;
  contentType: string | undefined;
  bytes: Uint8Array;
  /** The `authorization` header, if any. */
  authorization: string | undefined;
}

/** One `POST /v1/audio/speech` the fake received. */
export interface FakeSpeechRecord {
  model: unknown;
  voice: unknown;
  input: unknown;
  responseFormat: unknown;
  authorization: string | undefined;
}

/** An error as OpenAI writes it: `{ error: { message, type, code } }` with an HTTP status. */
export interface FakeSpeechError {
  status: number;
  message: string;
  type?: string;
  code?: string | null;
}

/** How the fake answers one request; fields left out take their defaults. */
export interface FakeSpeechReply {
  /** The transcript (`/audio/transcriptions`). Default: the recogniser's, else the options' `transcript`. */
  text?: string;
  /** `usage` reported beside the transcript, as OpenAI's newer models do. */
  usage?: { input_tokens?: number; output_tokens?: number; total_tokens?: number };
  /** Ogg Opus to answer `/audio/speech` with. Default the stock clip. */
  audio?: Uint8Array;
  /** Answer with this error instead. */
  error?: FakeSpeechError;
  /** Wait this long before answering, in ms (a slow server). */
  delayMs?: number;
  /** Never answer, until the client gives up or `releaseHeld()` is called. */
  hold?: boolean;
}

/** Options of `startFakeSpeechServer`. */
export interface FakeSpeechOptions {
  /** The transcript when no reply says otherwise and no recogniser is used. Default `'hello'`. */
  transcript?: string;
  /** Replies served in order, one per request (either endpoint); then the defaults. */
  replies?: FakeSpeechReply[];
  /**
   * Hear real speech: with Debian's `pocketsphinx` installed, transcribe 16 kHz mono WAV with it,
   * restricted to these sentences. Without it the fake uses `transcript` (see `recogniserAvailable`).
   */
  recogniseSentences?: readonly string[];
  /** Refuse anything but WAV, as whisper.cpp's server does without `--convert`. Default false. */
  wavOnly?: boolean;
  /** A key the fake requires as `Authorization: Bearer <key>`. Default none. */
  apiKey?: string;
}

/** A running fake speech server. */
export interface FakeSpeechServer {
  /** The API base to configure, ending in `/v1`: `http://127.0.0.1:40123/v1`. */
  url: string;
  transcriptions: FakeTranscriptionRecord[];
  speeches: FakeSpeechRecord[];
  /** Adds replies to the end of the queue. */
  replies: FakeSpeechReply[];
  /** Whether real recognition (pocketsphinx) is behind `/audio/transcriptions`. */
  recogniserAvailable: boolean;
  /** Resolves when `count` transcription and speech requests in all have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Answers every held request now (with its reply minus `hold`). */
  releaseHeld(): void;
  /** Stops listening and drops open connections (a client now finds nothing there). */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}
