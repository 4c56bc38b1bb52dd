export type { AudioFormat } from './audio-format.js';
export { AUDIO_FORMATS, sniffAudioFormat } from './audio-format.js';
export { VOICE_DEFAULTS } from './defaults.js';
export { decodeOggOpus, demuxOggOpus, oggOpusDeclaredSeconds } from './ogg-opus.js';
export type { OpusSampleRate, OpusStream } from './opus-stream.js';
export { opusPacketSamples, opusStreamSeconds } from './opus-stream.js';
export type { PcmAudio } from './pcm.js';
export { decodeWav, encodeWav, resample, rms, toMono } from './pcm.js';
export type { AudioClip, ClipLimits, PreparedClip, SendAs } from './prepare-clip.js';
export { checkClipSize, prepareClip } from './prepare-clip.js';
export type { VoiceHost } from './server-request.js';
export type { Speaker, SpeakerOptions, SpokenReply } from './speaker.js';
export { createSpeaker } from './speaker.js';
export { speakable, splitForSpeech } from './speech-text.js';
export type {
  TranscribeRequest,
  Transcriber,
  TranscriberOptions,
  Transcript,
  VoiceEvent,
} from './transcriber.js';
export { createTranscriber } from './transcriber.js';
export type { VoiceClients, VoiceClientsConfig, VoiceServerConfig } from './voice-clients.js';
export { createVoiceClients } from './voice-clients.js';
export type { VoiceError, VoiceErrorCode } from './voice-errors.js';
export { isClipProblem, isVoiceError } from './voice-errors.js';
export type { VoiceMessageMeta } from './voice-message-meta.js';
export { voiceMessageMeta } from './voice-message-meta.js';
