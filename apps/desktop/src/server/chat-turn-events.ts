import type { AgentEvent } from '@macstats/core';
import type { ChatTurn, ToolActivity } from './conversation-store.js';

/** Where a turn's events go: the open pages (`emit`) and the saved transcript (`persist`). */
export interface TurnEventsOptions {
  turn: ChatTurn;
  /** Sends one chat event of this turn to every open page. */
  emit(kind: string, extra?: Record<string, unknown>): void;
  /** Saves the conversation (in the background). */
  persist(): void;
  /** Records a model call beside the machine's load; its CPU share is shown with the turn. */
  recordCall?: ((event: AgentEvent) => { cpuPercent: number | null } | null) | undefined;
}

/**
 * The agent's events of one chat turn, folded into the turn as the page shows it: its draft,
 * speed and CPU share, each tool call with its result and image, the approval a call waited for,
 * and the status line.
 */
export function turnEvents(options: TurnEventsOptions): (event: AgentEvent) => void {
  const { turn, emit, persist, recordCall } = options;
  return (event) => {
    switch (event.type) {
      case 'token':
        turn.draft += event.text;
        emit('token', { text: event.text });
        break;
      case 'llm-call-end':
        if (event.tokensPerSecond !== null) turn.tokensPerSecond = event.tokensPerSecond;
        {
          const cpuPercent = recordCall?.(event)?.cpuPercent;
          if (cpuPercent !== undefined && cpuPercent !== null) turn.cpuPercent = cpuPercent;
        }
        if (event.hadToolCall) {
          // The streamed text was a tool call line, not a reply: the page drops it.
          turn.draft = '';
          emit('draft-reset');
        }
        break;
      case 'tool-call-start': {
        // A call that waited for approval already has its entry (made by its containment event).
        const waited = turn.tools.at(-1);
        if (
          waited?.status === 'running' &&
          waited.approval !== undefined &&
          waited.tool === event.tool &&
          waited.argument === event.argument
        )
          break;
        const activity: ToolActivity = { tool: event.tool, argument: event.argument, status: 'running' };
        turn.tools.push(activity);
        emit('tool-start', { activity });
        persist();
        break;
      }
      case 'tool-call-end': {
        let activity = [...turn.tools].reverse().find((item) => item.status === 'running');
        if (!activity) {
          // A call a guard refused never started: show it with its refusal.
          activity = { tool: event.tool, argument: event.argument, status: 'running' };
          turn.tools.push(activity);
        }
        activity.status = 'done';
        activity.result = event.result.text.slice(0, 4000);
        if (event.result.isError) activity.isError = true;
        activity.durationMs = event.durationMs;
        const image = event.result.images?.at(-1);
        if (image !== undefined) {
          // The last screenshot shows in the chat; earlier ones of the turn are dropped.
          for (const other of turn.tools) delete other.image;
          activity.image = imageDataUrl(image);
        }
        emit('tool-end', { activity, index: turn.tools.indexOf(activity) });
        persist();
        break;
      }
      case 'containment': {
        // Core decides before a call starts: the call's entry is made here, shows it waits, then
        // how it was decided; an approved call's start keeps it, a refused call's end closes it.
        let activity = [...turn.tools].reverse().find((item) => item.status === 'running');
        if (!activity || activity.tool !== event.tool || activity.argument !== event.argument) {
          activity = { tool: event.tool, argument: event.argument, status: 'running' };
          turn.tools.push(activity);
          emit('tool-start', { activity });
        }
        activity.approval = { decision: event.decision, reason: event.reason };
        emit('tool-approval', { activity, index: turn.tools.indexOf(activity) });
        persist();
        break;
      }
      case 'status':
        turn.statusText = event.text;
        emit('status', { text: turn.statusText });
        break;
      default:
        break;
    }
  };
}

/** A tool's base64 image as a `data:` URL, its type read from its first bytes (PNG, else JPEG). */
function imageDataUrl(base64: string): string {
  return `data:image/${base64.startsWith('iVBOR') ? 'png' : 'jpeg'};base64,${base64}`;
}
