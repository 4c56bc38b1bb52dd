import { type Message, MessageFlags } from 'discord.js';

/** An audio file a message carries: a voice message's Ogg Opus, or any `audio/*` attachment. */
export interface AudioCandidate {
  url: string;
  name: string;
  contentType: string;
  /** Declared size in bytes. */
  size: number;
  /** A voice message's declared length (`duration_secs`). */
  durationSecs?: number;
}

/** The audio attachments of a message, in order: its voice message, or files typed `audio/*`. */
export function audioCandidates(message: Message): AudioCandidate[] {
  const voice = message.flags.has(MessageFlags.IsVoiceMessage);
  const found: AudioCandidate[] = [];
  for (const attachment of message.attachments.values()) {
    const type = attachment.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
    if (!type.startsWith('audio/') && !(voice && attachment.duration !== null)) continue;
    found.push({
      url: attachment.url,
      name: attachment.name,
      contentType: type || 'audio/ogg',
      size: attachment.size,
      ...(attachment.duration !== null ? { durationSecs: attachment.duration } : {}),
    });
  }
  return found;
}

/** Whether a message carries audio to transcribe. */
export function hasAudio(message: Message): boolean {
  return audioCandidates(message).length > 0;
}
