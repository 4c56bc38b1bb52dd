import type {
  ChatEvent,
  ConversationList,
  ConversationSummary,
  ConversationsEvent,
} from '../shared/chat-types.js';
import { ApiError, getJson, sendJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import { formatTime } from './format.js';
import type { LiveStream } from './stream.js';

/** Wide enough for the list to sit beside the transcript (and start open); the CSS uses the same. */
const WIDE = '(min-width: 900px)';

/** What the list needs of the chat. */
export interface ChatHistoryOptions {
  /** The id of the conversation the chat shows now. */
  current(): string;
  /** Shows a conversation in the chat. */
  open(conversationId: string): void;
  /** The conversation shown was deleted (here or in another page): the chat starts a new one. */
  deletedCurrent(): void;
}

/** The "Earlier chats" list of the chat view. */
export interface ChatHistory {
  element: HTMLDetailsElement;
  /** Marks the conversation shown now. */
  markCurrent(): void;
  /** The chat view was shown or hidden: the list is read only while it can be seen. */
  setVisible(visible: boolean): void;
}

/**
 * The saved conversations, newest first: open one, delete one. The list is read again when a
 * turn starts or ends or a conversation is deleted anywhere (the live stream's `chat` and
 * `conversations` events), never by polling.
 */
export function createChatHistory(stream: LiveStream, options: ChatHistoryOptions): ChatHistory {
  const count = h('span', { class: 'history-count' });
  const message = h('p', { class: 'form-message', role: 'status', hidden: true });
  const list = h('ol', { class: 'history-list', 'aria-label': 'Earlier chats' });
  const element = h(
    'details',
    { class: 'chat-history', id: 'chat-history', open: matchMedia(WIDE).matches },
    h('summary', {}, 'Earlier chats', count),
    message,
    list,
  );
  let visible = false;
  let stale = true;
  let loading: Promise<void> | undefined;
  let again = false;

  function say(text: string): void {
    message.textContent = text;
    message.hidden = text === '';
  }

  function renderEntry(item: ConversationSummary): HTMLLIElement {
    const title = item.title || 'Untitled chat';
    const meta = [
      `${item.turns} ${item.turns === 1 ? 'question' : 'questions'}`,
      item.updatedAt === null ? '' : formatTime(item.updatedAt),
    ].filter(Boolean);
    const open = h(
      'button',
      { type: 'button', class: 'history-open', title },
      h('span', { class: 'history-title' }, title),
      h(
        'span',
        { class: 'history-meta' },
        meta.join(' · '),
        item.running ? h('span', { class: 'pill' }, 'answering') : null,
      ),
    );
    const remove = h(
      'button',
      {
        type: 'button',
        class: 'ghost danger history-delete',
        'aria-label': `Delete the chat “${title}”`,
        title: item.running ? 'Stop its answer to delete it' : 'Delete this chat',
        disabled: item.running,
      },
      '×',
    );
    open.addEventListener('click', () => {
      say('');
      options.open(item.id);
      markCurrent();
      // On a narrow screen the list sits above the transcript: fold it away to show the chat.
      if (!matchMedia(WIDE).matches) element.open = false;
    });
    remove.addEventListener('click', async () => {
      if (!confirm(`Delete the chat “${title}”? Its transcript cannot be brought back.`)) return;
      try {
        await sendJson(`/api/conversations/${encodeURIComponent(item.id)}`, {}, 'DELETE');
        say('');
        deleted(item.id);
      } catch (failure) {
        say(failure instanceof ApiError ? failure.message : String(failure));
      }
    });
    return h('li', { class: 'history-entry', 'data-conversation': item.id }, open, remove);
  }

  function markCurrent(): void {
    const current = options.current();
    for (const entry of list.querySelectorAll<HTMLLIElement>('.history-entry')) {
      if (entry.dataset['conversation'] === current) entry.setAttribute('aria-current', 'true');
      else entry.removeAttribute('aria-current');
    }
  }

  async function load(): Promise<void> {
    let answer: ConversationList;
    try {
      answer = await getJson<ConversationList>('/api/conversations');
    } catch (failure) {
      say(failure instanceof ApiError ? failure.message : String(failure));
      return;
    }
    count.textContent = answer.conversations.length > 0 ? ` (${answer.conversations.length})` : '';
    replaceChildren(
      list,
      ...(answer.conversations.length > 0
        ? answer.conversations.map(renderEntry)
        : [h('li', { class: 'history-empty' }, 'No earlier chats yet.')]),
      answer.truncated ? h('li', { class: 'history-empty' }, 'Older chats are not listed.') : null,
    );
    markCurrent();
  }

  /** Reads the list now, or once the view is shown; refreshes asked for meanwhile run once after. */
  function refresh(): void {
    if (!visible) {
      stale = true;
      return;
    }
    stale = false;
    if (loading) {
      again = true;
      return;
    }
    loading = load().finally(() => {
      loading = undefined;
      if (again) {
        again = false;
        refresh();
      }
    });
  }

  function deleted(conversationId: string): void {
    list.querySelector(`[data-conversation="${CSS.escape(conversationId)}"]`)?.remove();
    if (conversationId === options.current()) options.deletedCurrent();
    refresh();
  }

  stream.on('chat', (data) => {
    const { kind } = data as ChatEvent;
    if (kind === 'turn-start' || kind === 'turn-end') refresh();
  });
  stream.on('conversations', (data) => {
    const event = data as ConversationsEvent;
    if (event.kind === 'deleted') deleted(event.conversationId);
  });
  // After a reconnect the page may have missed events.
  stream.on('hello', refresh);

  return {
    element,
    markCurrent,
    setVisible(next) {
      visible = next;
      if (visible && stale) refresh();
    },
  };
}
