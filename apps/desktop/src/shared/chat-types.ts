// The chat shapes the server stores and streams and the page reads: one definition for both sides.

/** One tool call as the page shows it. */
export interface ToolActivity {
  tool: string;
  argument: string;
  status: 'running' | 'done';
  result?: string;
  isError?: boolean;
  durationMs?: number;
  /**
   * Set when the call needed the user's approval (core's containment policy): `asked` while the
   * card waits, then `approved` or `refused`, with the policy's one-sentence reason.
   */
  approval?: { decision: 'asked' | 'approved' | 'refused'; reason: string };
  /** The image the call gave (a browser screenshot) as a `data:` URL; only the turn's last one is kept. */
  image?: string;
}

/** A call waiting for the user's Approve or Deny, shown as a card in its turn. */
export interface PendingApproval {
  /** What the page posts to `/api/chat/approvals/:id`. */
  id: string;
  tool: string;
  argument: string;
  /** `send`: data would leave for a destination the user did not name; `persist`: saved state would change. */
  rule: 'send' | 'persist';
  /** The policy's one sentence: what the call would do and what is in the context. */
  reason: string;
  /** When it is denied without an answer, ms since the epoch. */
  expiresAt: number;
  /**
   * The remembered answers this card allows besides Approve once and Deny: This conversation
   * (`conversation`) and Always (`always`, a saved rule). Absent: neither.
   */
  choices?: { conversation: boolean; always: boolean };
}

/** A saved "Always" approval rule, as Settings lists it. */
export interface ApprovalRuleView {
  id: string;
  /** What it allows, in words: `POST may send to mcp:notes/post`. */
  text: string;
  /** When it was saved (ISO 8601). */
  createdAt: string;
  /** A "this conversation" answer's conversation; absent for an "Always" rule. */
  conversationId?: string;
  /** When a "this conversation" answer ends (ISO 8601). */
  expiresAt?: string;
}

/** A card waiting for an answer, as Settings lists it (from any process on the data folder). */
export interface PendingApprovalView {
  id: string;
  tool: string;
  rule: string;
  /** The call, as the card shows it. */
  argument: string;
  reason: string;
  /** Where it was asked: `discord`, `the dashboard`, … */
  where: string;
  /** When it is denied unanswered (milliseconds since the epoch). */
  expiresAt: number;
  /** The remembered answers it may be given, besides once and deny. */
  choices: { conversation: boolean; always: boolean };
}

/** How a pending approval ended. */
export type ApprovalOutcome = 'approved' | 'denied' | 'expired' | 'stopped';

/** An earlier message recalled into an answer's context, as the fold under the answer lists it. */
export interface RecalledLine {
  /** Its place in the conversation's archive: what `DELETE …/remembered/<seq>` removes. */
  seq: number;
  speaker: string;
  text: string;
  /** When it was said, ms since the epoch. */
  at: number;
  /** It came from an answer that read outside content. */
  outside?: boolean;
}

/** One question and its answer, as the page shows them. */
export interface ChatTurn {
  id: string;
  question: string;
  /** The agent profile that answers, when the picker chose one; none: the dashboard's own agent. */
  agent?: string;
  /** ms since the epoch. */
  askedAt: number;
  status: 'running' | 'done' | 'stopped';
  /** The reply as it streams in; cleared when a model call ends in a tool call. */
  draft: string;
  /** The final reply. */
  answer?: string;
  /** Set when Ollama or the model failed: `answer` is then the sentence that names the fix. */
  failed?: boolean;
  tools: ToolActivity[];
  /** The agent's latest status line while it works. */
  statusText?: string;
  /** A call waiting for the user's approval, while the card is up. */
  approval?: PendingApproval;
  finishedAt?: number;
  tokensPerSecond?: number;
  /** Mean CPU use of the machine while the model answered, %. */
  cpuPercent?: number;
  /** The earlier messages recalled into this answer's context. */
  recalled?: RecalledLine[];
}

/** The visible transcript of one conversation. */
export interface Conversation {
  id: string;
  turns: ChatTurn[];
}

/** One `chat` event of the live stream. */
export interface ChatEvent {
  conversationId: string;
  turnId: string;
  kind:
    | 'turn-start'
    | 'token'
    | 'draft-reset'
    | 'tool-start'
    | 'tool-end'
    | 'tool-approval'
    | 'status'
    | 'approval'
    | 'approval-end'
    | 'turn-end';
  turn?: ChatTurn;
  text?: string;
  activity?: ToolActivity;
  index?: number;
  /** `approval`: the card to show. */
  approval?: PendingApproval;
  /** `approval-end`: which card closed, and how. */
  approvalId?: string;
  outcome?: ApprovalOutcome;
}

/** One entry of `GET /api/conversations`: a saved conversation as the chat's list shows it. */
export interface ConversationSummary {
  id: string;
  /** The first question on one line, cut to 80 characters with "…". */
  title: string;
  /** Number of turns (questions) saved. */
  turns: number;
  /** When the last turn ended (or was asked, while it runs), ms since the epoch; null in files without times. */
  updatedAt: number | null;
  /** True while an answer is being written in this conversation. */
  running: boolean;
}

/** `GET /api/conversations`: newest first. */
export interface ConversationList {
  conversations: ConversationSummary[];
  /** True when older conversations were left out to keep the list short. */
  truncated: boolean;
}

/** One `conversations` event of the live stream: a conversation was deleted. */
export interface ConversationsEvent {
  kind: 'deleted';
  conversationId: string;
}

/** `GET /api/skills`: the skills and agent profiles read at start, what was skipped, and the model roles. */
export interface SkillsOverview {
  skills: Array<{ name: string; description: string }>;
  agents: Array<{ id: string; name: string; description: string; model: string }>;
  /** One sentence per skill or agent skipped, loaded with a warning, or withheld. */
  problems: string[];
  /** Skills whose files changed since the user accepted them, with what changed: not offered until trusted. */
  withheld: Array<{ name: string; changes: string }>;
  /** The model roles table; null when the model server cannot be asked. */
  routes: Array<{ role: string; model: string | null; reason: string; problem?: string }> | null;
}
