import type { ChatEvent, ChatTurn, Conversation, ToolActivity } from '../shared/chat-types.js';
import { createAgentPicker } from './agent-picker.js';
import { ApiError, getJson, sendJson } from './api.js';
import { approvalLabel, renderApprovalCard } from './approval-card.js';
import { createChatHistory } from './chat-history.js';
import { h, replaceChildren } from './dom.js';
import { visibleDraft } from './draft-text.js';
import { formatDuration } from './format.js';
import type { View } from './main.js';
import { renderInlineMarkdown, renderMarkdown } from './markdown.js';
import { renderMessage } from './message-text.js';
import { createMicrophone } from './microphone.js';
import { renderRecalledFold } from './recalled-fold.js';
import type { LiveStream } from './stream.js';

const CONVERSATION_KEY = 'macstats.conversation';

interface TurnElements {
  turn: ChatTurn;
  tools: HTMLOListElement;
  answer: HTMLDivElement;
  status: HTMLParagraphElement;
  /** Holds the approval card while a call waits for the user. */
  approval: HTMLDivElement;
}

/** The chat: earlier chats, transcript, streamed replies, tool activity, and the message box. */
export function createChatView(root: HTMLElement, stream: LiveStream): View {
  let conversationId = localStorage.getItem(CONVERSATION_KEY) ?? newConversationId();
  const turns = new Map<string, TurnElements>();
  const transcript = h('ol', { class: 'transcript', 'aria-live': 'polite', 'aria-label': 'Conversation' });
  const { input, send, stop, fresh, error, picker, microphone, form } = chatControls((failure) =>
    showError(failure),
  );
  picker.load();
  void microphone.load();
  const history = createChatHistory(stream, {
    current: () => conversationId,
    open: (id) => showConversation(id),
    deletedCurrent: () => showConversation(newConversationId(), true),
  });
  replaceChildren(root, history.element, h('div', { class: 'chat-main' }, transcript, error, form));

  const nearBottom = () => transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 80;
  const keepScrolled = (wasNearBottom: boolean) => {
    if (wasNearBottom) transcript.scrollTop = transcript.scrollHeight;
  };

  function renderTurn(turn: ChatTurn): void {
    const existing = turns.get(turn.id);
    const tools = h('ol', { class: 'tools' }, ...turn.tools.map(renderTool));
    const answer = h('div', { class: 'message assistant markdown' });
    const status = h('p', { class: 'turn-status' });
    const approval = h('div', { class: 'approval-slot' });
    const item = h(
      'li',
      { class: 'turn', 'data-turn': turn.id, 'data-status': turn.status },
      h('div', { class: 'message user' }, ...renderMessage(turn.question)),
      turn.agent ? h('p', { class: 'turn-agent' }, `Answered by the agent ${turn.agent}`) : null,
      tools,
      approval,
      answer,
      renderRecalledFold(turn, (line) =>
        sendJson(
          `/api/conversations/${encodeURIComponent(conversationId)}/remembered/${line.seq}`,
          {},
          'DELETE',
        ).then(
          () => {
            turn.recalled = (turn.recalled ?? []).filter((other) => other.seq !== line.seq);
          },
          (error: unknown) => {
            showError(error);
            throw error;
          },
        ),
      ),
      status,
    );
    const elements = { turn, tools, answer, status, approval };
    turns.set(turn.id, elements);
    renderApproval(elements);
    renderAnswer(elements);
    const old = existing ? transcript.querySelector(`[data-turn="${CSS.escape(turn.id)}"]`) : null;
    if (old) old.replaceWith(item);
    else transcript.append(item);
  }

  function setBusy(busy: boolean): void {
    send.disabled = busy;
    stop.hidden = !busy;
  }

  async function load(): Promise<void> {
    const id = conversationId;
    try {
      const conversation = await getJson<Conversation>(`/api/conversations/${id}`);
      // Another conversation was opened while this one was read.
      if (id !== conversationId) return;
      turns.clear();
      transcript.textContent = '';
      for (const turn of conversation.turns) renderTurn(turn);
      setBusy(conversation.turns.some((turn) => turn.status === 'running'));
      transcript.scrollTop = transcript.scrollHeight;
    } catch (failure) {
      showError(failure);
    }
  }

  function showError(failure: unknown): void {
    replaceChildren(
      error,
      ...renderInlineMarkdown(failure instanceof ApiError ? failure.message : String(failure)),
    );
    error.hidden = false;
  }

  stream.on('chat', (data) => {
    const event = data as ChatEvent;
    if (event.conversationId !== conversationId) return;
    const wasNearBottom = nearBottom();
    const elements = turns.get(event.turnId);
    if (event.kind === 'turn-start' || event.kind === 'turn-end') {
      if (event.turn) renderTurn(event.turn);
      setBusy(event.kind === 'turn-start');
    } else if (elements) applyChatEvent(elements, event);
    keepScrolled(wasNearBottom);
  });
  // After a reconnect the page may have missed events: read the transcript again.
  stream.on('hello', () => void load());

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const message = input.value.trim();
    if (message === '' || send.disabled) return;
    error.hidden = true;
    setBusy(true);
    try {
      const agent = picker.value();
      await sendJson('/api/chat', {
        conversationId,
        clientId: stream.clientId,
        message,
        ...(agent ? { agent } : {}),
      });
      input.value = '';
    } catch (failure) {
      setBusy(false);
      showError(failure);
    }
  });
  stop.addEventListener('click', () => void sendJson('/api/chat/stop', { conversationId }).catch(showError));
  /** Shows another conversation: empty for a new one, else its transcript (and its live answer). */
  function showConversation(id: string, isNew = false): void {
    conversationId = id;
    localStorage.setItem(CONVERSATION_KEY, id);
    turns.clear();
    transcript.textContent = '';
    error.hidden = true;
    setBusy(false);
    history.markCurrent();
    if (!isNew) void load();
  }

  fresh.addEventListener('click', () => {
    showConversation(newConversationId(), true);
    input.focus();
  });

  return {
    show: () => {
      history.setVisible(true);
      input.focus();
    },
    hide: () => history.setVisible(false),
  };
}

/** A new conversation id, remembered as the current one across reloads. */
function newConversationId(): string {
  const id = crypto.randomUUID();
  localStorage.setItem(CONVERSATION_KEY, id);
  return id;
}

/** The message box and its buttons; Enter sends, Shift+Enter starts a new line. */
/** The composer: the question box, the agent picker, the microphone and the buttons. */
function chatControls(onMicrophoneError: (failure: unknown) => void) {
  const input = h('textarea', {
    id: 'chat-input',
    rows: 2,
    placeholder: 'Ask about this machine, a web page, your schedules…',
    'aria-label': 'Message',
  });
  const send = h('button', { type: 'submit', id: 'chat-send' }, 'Send');
  const stop = h('button', { type: 'button', id: 'chat-stop', class: 'ghost', hidden: true }, 'Stop');
  const fresh = h('button', { type: 'button', id: 'chat-new', class: 'ghost' }, 'New chat');
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const picker = createAgentPicker();
  const microphone = createMicrophone(input, onMicrophoneError, () => picker.value());
  const form = h(
    'form',
    { class: 'composer' },
    input,
    h('div', { class: 'composer-actions' }, picker.element, microphone.element, send, stop, fresh),
  );
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  return { input, send, stop, fresh, error, picker, microphone, form };
}

/** One tool call of a turn: its state, argument, approval, result and image. */
function renderTool(activity: ToolActivity): HTMLLIElement {
  const refused = activity.approval?.decision === 'refused';
  const state =
    activity.status === 'running' ? 'running' : refused ? 'refused' : activity.isError ? 'failed' : 'done';
  const label = approvalLabel(activity);
  const summary = h(
    'summary',
    {},
    h('span', { class: 'tool-name' }, activity.tool),
    ' ',
    h(
      'span',
      { class: 'tool-argument' },
      activity.argument.length > 120 ? `${activity.argument.slice(0, 120)}…` : activity.argument,
    ),
    ' ',
    h(
      'span',
      { class: 'tool-state' },
      state === 'running'
        ? 'running…'
        : `${state}${activity.durationMs === undefined || refused ? '' : ` in ${formatDuration(activity.durationMs)}`}`,
    ),
    label === undefined ? null : ' ',
    label === undefined ? null : h('span', { class: 'tool-approval' }, label),
  );
  return h(
    'li',
    {
      class: `tool tool-${state}`,
      'data-tool': activity.tool,
      ...(activity.approval ? { 'data-approval': activity.approval.decision } : {}),
    },
    h(
      'details',
      {},
      summary,
      activity.approval ? h('p', { class: 'approval-reason' }, activity.approval.reason) : null,
      activity.result === undefined ? null : h('pre', { class: 'tool-result' }, activity.result),
    ),
    activity.image === undefined
      ? null
      : h('img', { class: 'tool-image', src: activity.image, alt: `What ${activity.tool} showed` }),
  );
}

/** A turn's answer (the draft while it streams) and its status line. */
function renderAnswer(elements: TurnElements): void {
  const { turn } = elements;
  const text = turn.status === 'running' ? visibleDraft(turn.draft) : (turn.answer ?? '');
  replaceChildren(elements.answer, ...renderMarkdown(text));
  elements.answer.classList.toggle('streaming', turn.status === 'running');
  elements.answer.closest('.turn')?.setAttribute('data-status', turn.status);
  elements.answer.classList.toggle('stopped', turn.status === 'stopped');
  elements.answer.classList.toggle('failed', turn.failed === true);
  elements.answer.hidden = text === '' && turn.status !== 'running';
  const cost = [
    turn.tokensPerSecond ? `${turn.tokensPerSecond.toFixed(1)} tokens/s` : '',
    turn.cpuPercent === undefined ? '' : `CPU ${Math.round(turn.cpuPercent)}% while the model ran`,
  ]
    .filter(Boolean)
    .join(' · ');
  const working = turn.approval ? 'Waiting for your approval…' : (turn.statusText ?? 'Thinking…');
  const meta = turn.status === 'running' ? working : cost;
  elements.status.textContent = meta;
  elements.status.hidden = meta === '';
}

/** The approval card of a turn, while a call waits for the user. */
function renderApproval(elements: TurnElements): void {
  const pending = elements.turn.approval;
  if (!pending) replaceChildren(elements.approval);
  else if (elements.approval.firstElementChild?.getAttribute('data-approval') !== pending.id)
    replaceChildren(elements.approval, renderApprovalCard(pending));
}

/** A live chat event of a turn already shown: its draft, status, tool calls and approval. */
function applyChatEvent(elements: TurnElements, event: ChatEvent): void {
  const { turn } = elements;
  if (event.kind === 'token') turn.draft += event.text ?? '';
  if (event.kind === 'draft-reset') turn.draft = '';
  if (event.kind === 'status') turn.statusText = event.text ?? '';
  if (event.kind === 'tool-start' && event.activity) {
    turn.tools.push(event.activity);
    elements.tools.append(renderTool(event.activity));
  }
  if ((event.kind === 'tool-end' || event.kind === 'tool-approval') && event.activity) {
    const index = event.index ?? turn.tools.length - 1;
    turn.tools[index] = event.activity;
    elements.tools.children[index]?.replaceWith(renderTool(event.activity));
    // Only the turn's last image shows: an earlier call's goes when a new one comes.
    if (event.activity.image !== undefined)
      turn.tools.forEach((other, at) => {
        if (at === index || other.image === undefined) return;
        delete other.image;
        elements.tools.children[at]?.replaceWith(renderTool(other));
      });
  }
  if (event.kind === 'approval' && event.approval) turn.approval = event.approval;
  if (event.kind === 'approval-end' && turn.approval?.id === event.approvalId) delete turn.approval;
  renderApproval(elements);
  renderAnswer(elements);
}
