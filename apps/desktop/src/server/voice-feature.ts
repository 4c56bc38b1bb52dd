import type { IncomingMessage } from 'node:http';
import type { DailyTokenBudget } from '@macstats/core';
import { isClipProblem } from '@macstats/voice';
import type { TranscribeResult, VoiceStatus } from '../shared/voice-types.js';
import { HttpError, sendJson } from './http-helpers.js';
import type { DashboardFeature } from './start-dashboard.js';

/** Largest recording the microphone may upload (the transcriber's own default limit). */
export const MAX_RECORDING_BYTES = 8 * 1024 * 1024;

/** What the dashboard's voice needs: the settings to show, and the transcriber, when one is set. */
export interface DashboardVoice {
  status: VoiceStatus;
  /** `@macstats/voice`'s transcriber; rejects with a one-sentence error. Absent: nothing is transcribed. */
  transcribe?:
    | ((
        audio: { bytes: Uint8Array; name?: string; contentType?: string },
        options: { signal: AbortSignal },
      ) => Promise<{ text: string; tokens?: { total: number | null } | undefined }>)
    | undefined;
  /** Stops the transcriber's pool; called when the dashboard closes. */
  close?: (() => void) | undefined;
}

/** What an agent profile's id may be (`?agent=`): the budget's key is made of it. */
const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** No speech server set: Settings says so, the microphone answers 503. */
export const NO_VOICE: DashboardVoice = { status: { transcribe: null, speak: null, speakReplies: 'off' } };

/** An address as Settings shows it: no user name, password, query or fragment. */
export function maskServerUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(not a URL)';
  }
}

async function readRecording(request: IncomingMessage): Promise<{ bytes: Uint8Array; contentType: string }> {
  const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!contentType.startsWith('audio/') && contentType !== 'application/ogg')
    throw new HttpError(415, 'Send the recording as audio (audio/webm, audio/ogg, audio/wav…).');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_RECORDING_BYTES)
      throw new HttpError(
        413,
        `The recording is over ${MAX_RECORDING_BYTES / (1024 * 1024)} MB; record a shorter one.`,
      );
    chunks.push(chunk as Buffer);
  }
  return { bytes: Buffer.concat(chunks), contentType };
}

/**
 * The microphone's server side: `GET /api/voice` says which speech servers the settings name
 * (addresses without credentials, whether a key is set), and `POST /api/voice/transcribe` takes
 * a recording (the request body, typed `audio/*`, up to 8 MiB) and answers `{ text }` from the
 * configured transcriber, or one sentence: 503 with none set, 400 for a recording it cannot
 * hear, 502 when the server failed, 429 when the daily token budget of the chat's agent (`?agent=`,
 * the picker's choice; default `default`) is spent, with the sentence a typed question gets. The
 * tokens the server reports for the transcript are counted against that budget. Behind the
 * dashboard's token, Host and Origin checks.
 */
export function createVoiceFeature(
  voice: DashboardVoice,
  budget?: Pick<DailyTokenBudget, 'check' | 'count'> | undefined,
): DashboardFeature {
  return {
    routes: [
      {
        method: 'GET',
        path: /^\/api\/voice$/,
        kind: 'read',
        handle: ({ response }) => sendJson(response, 200, voice.status),
      },
      {
        method: 'POST',
        path: /^\/api\/voice\/transcribe$/,
        kind: 'write',
        async handle({ request, response, url }) {
          const transcribe = voice.transcribe;
          if (!transcribe)
            throw new HttpError(
              503,
              'No transcription server is set up: set TRANSCRIBE_BASE_URL (see docs/voice.md).',
            );
          const agent = url.searchParams.get('agent') || undefined;
          if (agent !== undefined && !AGENT_ID.test(agent))
            throw new HttpError(400, 'The agent named for the recording is not an agent id.');
          const who = { account: { agent } };
          const refusal = await budget?.check(who);
          if (refusal) throw new HttpError(429, refusal.message);
          const { bytes, contentType } = await readRecording(request);
          const abort = new AbortController();
          // The page gave up (closed, navigated away): stop the transcription too.
          response.on('close', () => abort.abort(new Error('The page went away.')));
          try {
            const { text, tokens } = await transcribe(
              { bytes, name: 'recording', contentType },
              { signal: abort.signal },
            );
            // A count that cannot be written loses the count, not the words: the ledger is
            // checked again before the next answer or recording.
            await budget?.count(who, tokens?.total ?? 0).catch(() => {});
            const result: TranscribeResult = { text: text.trim() };
            sendJson(response, 200, result);
          } catch (error) {
            if (abort.signal.aborted) return;
            const message = error instanceof Error ? error.message : String(error);
            throw new HttpError(isClipProblem(error) ? 400 : 502, message);
          }
        },
      },
    ],
    close: () => voice.close?.(),
  };
}
