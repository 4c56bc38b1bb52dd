import { ApiError, getJson, sendJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import type { View } from './main.js';

/** One MEMORY note as `/api/notes` returns it. */
interface Note {
  text: string;
  at: number;
}

interface NotesAnswer {
  scope: string;
  notes: Note[];
}

/**
 * Notes: the MEMORY notes of one scope (the global scope every conversation reads, or a
 * conversation's, such as `discord-<channel id>`), with a form to add one and a button to remove
 * each. Adds go through the same checks as the MEMORY tool, so a refusal shows its sentence.
 */
export function createNotesView(root: HTMLElement): View {
  const scopeInput = h('input', {
    id: 'notes-scope',
    type: 'text',
    value: 'global',
    placeholder: 'global, or discord-<channel id>',
  });
  const showButton = h('button', { type: 'button', id: 'notes-show', class: 'ghost' }, 'Show');
  const list = h('ol', { class: 'note-list', id: 'note-list' });
  const empty = h('p', { class: 'notes-empty', id: 'notes-empty' }, 'No notes in this scope.');
  const text = h('input', { id: 'note-text', type: 'text', maxlength: 500 });
  const addButton = h('button', { type: 'submit', id: 'note-add' }, 'Add note');
  // Visible labels, tied to their fields: a placeholder alone goes once the field has text.
  const form = h(
    'form',
    { class: 'note-form', id: 'note-form' },
    h('label', { for: 'note-text' }, 'New note'),
    text,
    addButton,
  );
  const message = h('p', { class: 'form-message', id: 'notes-message', role: 'status' });
  replaceChildren(
    root,
    h('div', { class: 'section-head' }, h('h2', {}, 'Notes')),
    h(
      'p',
      { class: 'hint' },
      'Facts the assistant keeps (MEMORY). Global notes are read in every conversation; deleting a chat leaves its notes alone.',
    ),
    h('div', { class: 'note-scope' }, h('label', { for: 'notes-scope' }, 'Scope'), scopeInput, showButton),
    form,
    message,
    empty,
    list,
  );

  const scope = () => scopeInput.value.trim() || 'global';
  const query = () => `?scope=${encodeURIComponent(scope())}`;

  function render(answer: NotesAnswer): void {
    empty.hidden = answer.notes.length > 0;
    replaceChildren(
      list,
      ...answer.notes.map((note, index) => {
        const remove = h(
          'button',
          { type: 'button', class: 'ghost danger', 'data-action': 'remove-note' },
          'Remove',
        );
        remove.addEventListener('click', async () => {
          try {
            render(await sendJson<NotesAnswer>(`/api/notes/${index + 1}${query()}`, {}, 'DELETE'));
            message.textContent = `Removed note ${index + 1}.`;
          } catch (failure) {
            message.textContent = failure instanceof ApiError ? failure.message : String(failure);
          }
        });
        return h(
          'li',
          { class: 'note' },
          h('span', { class: 'note-date' }, new Date(note.at).toISOString().slice(0, 10)),
          h('span', { class: 'note-text' }, note.text),
          remove,
        );
      }),
    );
  }

  async function load(): Promise<void> {
    try {
      render(await getJson<NotesAnswer>(`/api/notes${query()}`));
    } catch (failure) {
      message.textContent = failure instanceof ApiError ? failure.message : String(failure);
    }
  }

  showButton.addEventListener('click', () => void load());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.textContent = '';
    try {
      const answer = await sendJson<NotesAnswer & { pruned: Note[] }>('/api/notes', {
        scope: scope(),
        text: text.value,
      });
      text.value = '';
      render(answer);
      message.textContent =
        answer.pruned.length > 0
          ? `Saved. The ${answer.pruned.length} oldest note(s) were removed to stay within the budget.`
          : 'Saved.';
    } catch (failure) {
      message.textContent = failure instanceof ApiError ? failure.message : String(failure);
    }
  });

  return { show: () => void load() };
}
