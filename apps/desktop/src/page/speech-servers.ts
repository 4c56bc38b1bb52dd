import type { SpeechServerView, VoiceStatus } from '../shared/voice-types.js';
import { ApiError, getJson } from './api.js';
import { h, replaceChildren } from './dom.js';

function describe(label: string, server: SpeechServerView | null, unset: string): HTMLElement {
  if (!server) return h('p', { class: 'note' }, `${label}: ${unset}`);
  const details = [`model ${server.model}`];
  if (server.voice) details.push(`voice ${server.voice}`);
  if (server.keySet) details.push('key set');
  return h(
    'div',
    { class: 'speech-server' },
    h('h3', {}, label),
    h('ul', {}, ...server.servers.map((url) => h('li', {}, h('code', {}, url)))),
    h('p', { class: 'note' }, details.join(', ')),
  );
}

/**
 * Settings' speech servers: the transcription and speech servers the settings name
 * (`TRANSCRIBE_*`, `SPEAK_*`; addresses without credentials, keys never shown) and when Discord
 * replies are spoken. Read-only: they are set in `.config.env` (docs/voice.md).
 */
export function createSpeechServersSection(): { element: HTMLElement; load(): Promise<void> } {
  const body = h('div', {});
  const element = h(
    'section',
    { class: 'settings-speech', id: 'settings-speech' },
    h('h2', {}, 'Speech servers'),
    body,
  );
  return {
    element,
    async load() {
      try {
        const status = await getJson<VoiceStatus>('/api/voice');
        replaceChildren(
          body,
          describe(
            'Transcription',
            status.transcribe,
            'none (set TRANSCRIBE_BASE_URL to use the microphone and voice notes)',
          ),
          describe('Speech', status.speak, 'none (set SPEAK_BASE_URL for spoken replies)'),
          h('p', { class: 'note' }, `Spoken Discord replies: ${status.speakReplies}.`),
        );
      } catch (failure) {
        replaceChildren(
          body,
          h('p', { class: 'note' }, failure instanceof ApiError ? failure.message : String(failure)),
        );
      }
    },
  };
}
