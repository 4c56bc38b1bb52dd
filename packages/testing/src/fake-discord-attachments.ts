import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeDiscordAttachment } from './fake-discord-types.js';

/** Message flag IS_VOICE_MESSAGE. */
export const IS_VOICE_MESSAGE = 1 << 13;

/** How long a signed link stays valid, as Discord's `ex` says (a day). */
const LINK_LIFETIME_SECONDS = 24 * 60 * 60;

/** A file on the fake's CDN, and the signature its link must carry. */
export interface FakeCdnFile {
  data: Uint8Array;
  contentType: string;
  signature: string;
}

/** A file part of a multipart upload (`files[n]`). */
export interface FakeUpload {
  /** `n` of `files[n]`: what `attachments[].id` refers to. */
  index: string;
  filename: string;
  contentType: string;
  data: Uint8Array;
}

const uploads = new WeakMap<object, FakeUpload[]>();
const secret = randomBytes(16);

/** The files uploaded with a request body parsed by {@link readDiscordBody}. */
export function uploadsOf(body: unknown): FakeUpload[] {
  return typeof body === 'object' && body !== null ? (uploads.get(body) ?? []) : [];
}

/**
 * Reads a REST request's body as Discord does: JSON, or `multipart/form-data` with the JSON in
 * `payload_json` and the files in `files[n]` (what discord.js sends with attachments). Throws on
 * a body that is neither.
 */
export async function readDiscordBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const type = request.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data')) {
    const text = raw.toString('utf8');
    return text.trim() === '' ? undefined : JSON.parse(text);
  }
  // The platform's own multipart parser (undici's), as a server framework would use.
  const form = await new Request('http://fake/', {
    method: 'POST',
    headers: { 'content-type': type },
    body: raw,
  }).formData();
  const payload = form.get('payload_json');
  const body = (typeof payload === 'string' ? JSON.parse(payload) : {}) as object;
  const files: FakeUpload[] = [];
  for (const [name, value] of form.entries()) {
    const index = /^files\[(\d+)\]$/.exec(name)?.[1];
    if (index === undefined || typeof value === 'string') continue;
    files.push({
      index,
      filename: value.name,
      contentType: value.type,
      data: new Uint8Array(await value.arrayBuffer()),
    });
  }
  uploads.set(body, files);
  return body;
}

/**
 * Puts a file on the fake's CDN and returns its link, signed like Discord's: `ex` (expiry), `is`
 * (issued) and `hm` (a signature); the CDN refuses the link without them.
 */
export function putOnCdn(
  files: Map<string, FakeCdnFile>,
  cdnOrigin: string,
  path: string,
  file: { data: Uint8Array; contentType: string },
): string {
  const issued = Math.floor(Date.now() / 1000);
  const query = `ex=${(issued + LINK_LIFETIME_SECONDS).toString(16)}&is=${issued.toString(16)}`;
  const signature = createHmac('sha256', secret).update(`${path}?${query}`).digest('hex');
  files.set(path, { ...file, signature });
  return `${cdnOrigin}${path}?${query}&hm=${signature}`;
}

/**
 * Serves a CDN file: 200 with its bytes for the link with its signature, 404 with Discord's
 * sentence for a link without its query or with another signature.
 */
export function serveCdnFile(
  url: URL,
  files: ReadonlyMap<string, FakeCdnFile>,
  response: ServerResponse,
): void {
  const file = files.get(url.pathname);
  if (!file || url.searchParams.get('hm') !== file.signature) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('This content is no longer available.');
    return;
  }
  response
    .writeHead(200, { 'content-type': file.contentType, 'content-length': file.data.byteLength })
    .end(file.data);
}

/** An attachment as a message payload carries it. */
export function attachmentPayload(attachment: FakeDiscordAttachment): Record<string, unknown> {
  return {
    id: attachment.id,
    filename: attachment.filename,
    size: attachment.size,
    url: attachment.url,
    proxy_url: attachment.url,
    content_type: attachment.contentType,
    ...(attachment.durationSecs !== undefined ? { duration_secs: attachment.durationSecs } : {}),
    ...(attachment.waveform !== undefined ? { waveform: attachment.waveform } : {}),
  };
}

/** A refusal as Discord words it: 400 with its code. */
function refused(code: number, message: string) {
  return { status: 400, body: { message, code } };
}

/**
 * The attachments of a message the bot creates: each `attachments[]` entry names an uploaded
 * `files[n]` by `id`, with its `filename`, and for a voice message `duration_secs` and
 * `waveform`. The files go on the CDN. Refuses, as Discord does, an entry naming no upload, and a
 * voice message (flag IS_VOICE_MESSAGE) with content (50159), with other than one audio file
 * (50160), or without its duration and waveform (50161).
 */
export function uploadedAttachments(
  body: Record<string, unknown>,
  store: { nextId(): string; files: Map<string, FakeCdnFile>; cdnOrigin: string },
  channelId: string,
): FakeDiscordAttachment[] | { status: number; body: unknown } {
  const files = uploadsOf(body);
  const entries = Array.isArray(body.attachments) ? (body.attachments as Array<Record<string, unknown>>) : [];
  const attachments: FakeDiscordAttachment[] = [];
  for (const upload of files) {
    const entry = entries.find((candidate) => String(candidate.id) === upload.index) ?? {};
    const id = store.nextId();
    const filename = typeof entry.filename === 'string' ? entry.filename : upload.filename;
    const path = `/attachments/${channelId}/${id}/${encodeURIComponent(filename)}`;
    const contentType = upload.contentType || 'application/octet-stream';
    attachments.push({
      id,
      filename,
      contentType,
      size: upload.data.byteLength,
      url: putOnCdn(store.files, store.cdnOrigin, path, { data: upload.data, contentType }),
      ...(typeof entry.duration_secs === 'number' ? { durationSecs: entry.duration_secs } : {}),
      ...(typeof entry.waveform === 'string' ? { waveform: entry.waveform } : {}),
    });
  }
  const unknown = entries.find((entry) => !files.some((upload) => String(entry.id) === upload.index));
  if (unknown)
    return refused(
      50035,
      `Invalid Form Body: attachments refers to a file not uploaded (${String(unknown.id)})`,
    );
  const flags = typeof body.flags === 'number' ? body.flags : 0;
  if ((flags & IS_VOICE_MESSAGE) === 0) return attachments;
  if (typeof body.content === 'string' && body.content !== '')
    return refused(50159, 'Voice messages do not support additional content.');
  const [voice] = attachments;
  if (attachments.length !== 1 || !voice?.contentType.startsWith('audio/'))
    return refused(50160, 'Voice messages must have a single audio attachment.');
  if (voice.durationSecs === undefined || voice.waveform === undefined)
    return refused(50161, 'Voice messages must have supporting metadata.');
  return attachments;
}
