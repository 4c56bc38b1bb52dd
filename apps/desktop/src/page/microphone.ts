import type { TranscribeResult, VoiceStatus } from '../shared/voice-types.js';
import { ApiError, getJson } from './api.js';
import { h } from './dom.js';

/** Longest recording, in milliseconds: the recorder stops by itself (the server takes 5 minutes). */
const MAX_RECORDING_MS = 5 * 60_000;

/** Posts a recording to the transcriber; resolves with what was heard, or throws the server's sentence. */
async function transcribeRecording(recording: Blob, agent: string | undefined): Promise<string> {
  let response: Response;
  // The chat's agent: the transcript counts against its daily token budget, as its answer will.
  const query = agent === undefined ? '' : `?agent=${encodeURIComponent(agent)}`;
  try {
    response = await fetch(`/api/voice/transcribe${query}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': recording.type.split(';')[0] || 'audio/webm' },
      body: recording,
    });
  } catch {
    throw new ApiError(0, 'The dashboard server is not reachable.');
  }
  const payload = (await response.json().catch(() => ({}))) as Partial<TranscribeResult> & { error?: string };
  if (!response.ok)
    throw new ApiError(response.status, payload.error ?? `Transcription failed (${response.status}).`);
  return payload.text ?? '';
}

/**
 * The chat's microphone button: a click records with the browser's MediaRecorder, a second click
 * stops and uploads the recording to `POST /api/voice/transcribe`; what was heard is put in the
 * question box for the user to send or edit, never sent by itself. Hidden until Settings has a
 * transcription server.
 */
export function createMicrophone(
  input: HTMLTextAreaElement,
  showError: (failure: unknown) => void,
  agent: () => string | undefined,
): { element: HTMLButtonElement; load(): Promise<void> } {
  const button = h(
    'button',
    {
      type: 'button',
      id: 'chat-mic',
      class: 'ghost',
      hidden: true,
      'aria-pressed': 'false',
      title: 'Speak your question',
    },
    '🎙️',
  );
  let recorder: MediaRecorder | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function setState(state: 'idle' | 'recording' | 'transcribing'): void {
    button.dataset['state'] = state;
    button.setAttribute('aria-pressed', String(state === 'recording'));
    button.disabled = state === 'transcribing';
    button.textContent = state === 'recording' ? '⏹ Stop' : state === 'transcribing' ? 'Transcribing…' : '🎙️';
  }

  async function finish(chunks: Blob[], type: string): Promise<void> {
    setState('transcribing');
    try {
      const text = await transcribeRecording(new Blob(chunks, { type }), agent());
      if (text !== '') input.value = input.value.trim() === '' ? text : `${input.value.trimEnd()} ${text}`;
      input.focus();
    } catch (failure) {
      showError(failure);
    } finally {
      setState('idle');
    }
  }

  async function start(): Promise<void> {
    let media: MediaStream;
    try {
      media = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      showError(new ApiError(0, 'The microphone is not available: allow it for this page and try again.'));
      return;
    }
    const chunks: Blob[] = [];
    const current = new MediaRecorder(media);
    recorder = current;
    delete button.dataset.captured;
    current.addEventListener('dataavailable', (event) => {
      if (event.data.size === 0) return;
      chunks.push(event.data);
      // Audio has reached the recording (the page's tests wait for it before they stop).
      button.dataset.captured = 'true';
    });
    current.addEventListener('stop', () => {
      clearTimeout(timer);
      for (const track of media.getTracks()) track.stop();
      recorder = undefined;
      void finish(chunks, current.mimeType);
    });
    // Chunks every quarter second: what was said is kept in pieces as it comes.
    current.start(250);
    timer = setTimeout(() => current.state === 'recording' && current.stop(), MAX_RECORDING_MS);
    setState('recording');
  }

  button.addEventListener('click', () => {
    if (recorder?.state === 'recording') recorder.stop();
    else void start();
  });
  setState('idle');

  return {
    element: button,
    async load() {
      const status = await getJson<VoiceStatus>('/api/voice').catch(() => undefined);
      button.hidden = !status?.transcribe || typeof MediaRecorder === 'undefined';
    },
  };
}
