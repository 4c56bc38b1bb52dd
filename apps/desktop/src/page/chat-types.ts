// The shapes the server sends for the chat (mirrors src/server/conversation-store.ts).

export interface ToolActivity {
  tool: string;
  argument: string;
  status: 'running' | 'done';
  result?: string;
  isError?: boolean;
  durationMs?: number;
}

export interface ChatTurn {
  id: string;
  question: string;
  askedAt: number;
  status: 'running' | 'done' | 'stopped';
  draft: string;
  answer?: string;
  tools: ToolActivity[];
  statusText?: string;
  finishedAt?: number;
  tokensPerSecond?: number;
  cpuPercent?: number;
}

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
