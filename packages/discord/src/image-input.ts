import type { Logger } from '@macstats/core';
import type { Message } from 'discord.js';
import type { DiscordBotFeatureOptions } from './bot-feature-options.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { fetchImage } from './image-fetch.js';

/** Image links in a message's text: a URL whose path ends in an image extension. */
const IMAGE_URL = /https?:\/\/[^\s<>()]+?\.(?:png|jpe?g|gif|webp)(?:\?[^\s<>()]*)?(?=[\s<>()]|$)/gi;

/** An image a message carries: an attachment, or a link in its text. */
export interface ImageCandidate {
  url: string;
  /** Declared size in bytes (attachments only). */
  size?: number;
}

/** What the model can do with images, asked through the app. */
export interface VisionSupport {
  /** Most images per answer. */
  maxImages: number;
  /** Largest image, in bytes. */
  maxBytes: number;
  /** Origins images are downloaded from. */
  allowedOrigins: readonly string[];
  /** Whether `model` (undefined: the agent's default) reads images. */
  canSee(model: string | undefined): Promise<boolean>;
  /** An installed model that reads images, if any. */
  visionModel(): Promise<string | undefined>;
}

/** The images of a turn's messages, in order: image attachments, then image links in the text. */
export function imageCandidates(messages: readonly Message[]): ImageCandidate[] {
  const found: ImageCandidate[] = [];
  const seen = new Set<string>();
  const add = (candidate: ImageCandidate) => {
    if (seen.has(candidate.url)) return;
    seen.add(candidate.url);
    found.push(candidate);
  };
  for (const message of messages) {
    for (const attachment of message.attachments.values())
      if (attachment.contentType?.startsWith('image/')) add({ url: attachment.url, size: attachment.size });
    for (const match of message.content.matchAll(IMAGE_URL)) add({ url: match[0] });
  }
  return found;
}

/**
 * Downloads up to `maxImages` of the candidates through {@link fetchImage}; one that is too big,
 * from another origin, or not an image is left out and logged.
 */
export async function loadImages(
  candidates: readonly ImageCandidate[],
  vision: VisionSupport,
  signal: AbortSignal,
  logger: Logger,
): Promise<string[]> {
  const images: string[] = [];
  for (const candidate of candidates) {
    if (images.length >= vision.maxImages) {
      logger.info({ limit: vision.maxImages }, 'more images than the limit; the rest are left out');
      break;
    }
    if (candidate.size !== undefined && candidate.size > vision.maxBytes) {
      logger.info({ url: candidate.url, size: candidate.size }, 'image over the size limit left out');
      continue;
    }
    try {
      images.push(
        await fetchImage(candidate.url, {
          allowedOrigins: vision.allowedOrigins,
          maxBytes: vision.maxBytes,
          signal,
        }),
      );
    } catch (error) {
      if (signal.aborted) throw error;
      logger.warn({ err: error, url: candidate.url }, 'image left out');
    }
  }
  return images;
}

/** The one sentence for a model that cannot read images, naming one that can when there is one. */
export function cannotSeeSentence(model: string | undefined, visionModel: string | undefined): string {
  const current = model ?? 'the current model';
  return visionModel
    ? `I can't see images with ${current}; ${visionModel} can (someone with Manage Server can switch with /model).`
    : `I can't see images with ${current}, and no installed model can; pull a vision model (such as llava) to use images.`;
}

/** The bot's image settings from its options, defaults filled in. */
export function visionSupport(options: DiscordBotFeatureOptions): VisionSupport {
  return {
    maxImages: options.maxImages ?? DISCORD_BOT_DEFAULTS.maxImages,
    maxBytes: options.maxImageBytes ?? DISCORD_BOT_DEFAULTS.maxImageBytes,
    allowedOrigins: (options.imageOrigins ?? DISCORD_BOT_DEFAULTS.imageOrigins).map(
      (origin) => new URL(origin).origin,
    ),
    canSee: async (model) => (await options.capabilities?.(model))?.vision ?? false,
    visionModel: async () => options.visionModel?.(),
  };
}
