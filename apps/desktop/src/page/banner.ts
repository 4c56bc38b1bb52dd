import type { OllamaStatus } from '../shared/ollama-types.js';
import { sendJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import { renderInlineMarkdown } from './markdown.js';

/** The Ollama banner: shown while Ollama is unreachable or lacks a model, with the fix. */
export function createOllamaBanner(root: HTMLElement): (status: OllamaStatus) => void {
  return (status) => {
    if (!status.problem) {
      root.hidden = true;
      return;
    }
    const retry = h('button', { type: 'button', class: 'ghost', id: 'banner-retry' }, 'Check again');
    retry.addEventListener('click', () => {
      retry.disabled = true;
      retry.textContent = 'Checking…';
      // The answer comes back as an `ollama` event too; this only restores the button.
      void sendJson('/api/ollama/check', {}).finally(() => {
        retry.disabled = false;
        retry.textContent = 'Check again';
      });
    });
    replaceChildren(
      root,
      h('span', { class: 'problem' }, ...renderInlineMarkdown(status.problem)),
      ' ',
      h('span', { class: 'banner-actions' }, retry, ' ', h('a', { href: '#settings' }, 'Settings')),
    );
    root.hidden = false;
  };
}
