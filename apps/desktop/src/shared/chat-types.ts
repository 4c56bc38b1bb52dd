// The chat shapes the server stores and streams and the page reads: one definition for both sides.

/** One tool call as the page shows it. */
export interface ToolActivity {
  tool: string;
  argument: string;
  status: 'running' | 'done';
  result?: string;
  isError?: boolean;
  durationMs?: number;
}

/** One question and its answer, as the page shows them. */
export interface ChatTurn {
  id: string;
  question: string;
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
  finishedAt?: number;
  tokensPerSecond?: number;
  /** Mean CPU use of the machine while the model answered, %. */
  cpuPercent?: number;
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
  kind: 'turn-start' | 'token' | 'draft-reset' | 'tool-start' | 'tool-end' | 'status' | 'turn-end';
  turn?: ChatTurn;
  text?: string;
  activity?: ToolActivity;
  index?: number;
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
