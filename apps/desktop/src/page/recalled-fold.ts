import type { ChatTurn, RecalledLine } from '../shared/chat-types.js';
import { h } from './dom.js';

/** `2023-05-08 13:56`: when a remembered message was said, in UTC as the model read it. */
function saidAt(at: number): string {
  return new Date(at).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * The fold under an answer listing the earlier messages recalled into its context, each dated and
 * attributed, with a Forget button that removes it from the conversation's memory for good.
 * Nothing when the answer recalled none.
 */
export function renderRecalledFold(
  turn: ChatTurn,
  forget: (line: RecalledLine) => Promise<void>,
): HTMLDetailsElement | null {
  const lines = turn.recalled ?? [];
  if (lines.length === 0) return null;
  const items = lines.map((line) => {
    const button = h(
      'button',
      { type: 'button', class: 'forget-recalled', title: 'Never recall this message again' },
      'Forget',
    );
    const item = h(
      'li',
      { 'data-seq': String(line.seq) },
      h('time', {}, `${saidAt(line.at)} UTC`),
      ` ${line.speaker}${line.outside ? ' (read outside content)' : ''}: `,
      h('span', { class: 'recalled-text' }, line.text),
      ' ',
      button,
    );
    button.addEventListener('click', () => {
      button.disabled = true;
      forget(line).then(
        () => item.remove(),
        () => {
          button.disabled = false;
        },
      );
    });
    return item;
  });
  const count = lines.length === 1 ? '1 earlier message' : `${lines.length} earlier messages`;
  return h('details', { class: 'recalled' }, h('summary', {}, `Recalled ${count}`), h('ol', {}, ...items));
}
