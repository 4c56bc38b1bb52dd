import { randomUUID } from 'node:crypto';
import type {
  Agent,
  AgentAnswer,
  AgentEvent,
  ApprovalRuleStore,
  PendingApprovals,
  Tool,
} from '@macstats/core';
import { createChatApprovals } from './chat-approvals.js';
import { turnEvents } from './chat-turn-events.js';
import { createConversationRoutes } from './conversation-routes.js';
import type { ChatTurn, ConversationStore } from './conversation-store.js';
import { checkId, HttpError, readJsonBody, sendJson, stringField } from './http-helpers.js';
import type { DashboardCore, DashboardFeature } from './start-dashboard.js';

/** What the chat needs of core's `Agent`. */
export type ChatAgent = Pick<Agent, 'answer'>;

/**
 * Gives the agent for the Ollama host and model chosen now (as the agent profile `agentId`, when
 * the chat's picker chose one), or why there is none.
 */
export type AgentSource = (agentId?: string) => Promise<ChatAgent | { unavailable: string }>;

/** Options of {@link createChatFeature}. */
export interface ChatFeatureOptions {
  store: ConversationStore;
  /** The saved "Always" approval rules: cards offer Always. Default: none. */
  approvalRules?: ApprovalRuleStore | undefined;
  /** The pending-approvals registry shared with Settings. Default: one of the chat's own. */
  pendingApprovals?: PendingApprovals | undefined;
  agent: AgentSource;
  /** The tools of a chat answer (the agent's plus RUN_JS). Default: the agent's own. */
  tools?: Tool[];
  /**
   * Live context for each answer: the dashboard gives the current metrics. Default none. The
   * conversation's notes are not added here: the `notes` layer of the root's `appAgentWrappers`
   * puts them after this context.
   */
  context?: (conversationId: string) => string | undefined | Promise<string | undefined>;
  /** Records a model call beside the machine's load; its CPU share is shown with the turn. */
  recordCall?: (event: AgentEvent) => { cpuPercent: number | null } | null;
  /** Longest question accepted. Default 8000 characters. */
  maxQuestionChars?: number;
  /** Forgets what the agent remembers of a deleted conversation (core's memory). Default: nothing. */
  forget?: (conversationId: string) => Promise<unknown>;
  /** Called when an answer failed because the model did (so the Ollama banner can say so now). */
  onModelFailure?: () => void;
  /** Removes one remembered message of a conversation (the fold under an answer). */
  forgetMessage?: (conversationId: string, seq: number) => Promise<boolean>;
}

/** Defaults of {@link ChatFeatureOptions}. */
export const CHAT_DEFAULTS = { maxQuestionChars: 8000 } as const;

/**
 * The chat: a question starts a turn that runs in the background; its tokens, tool calls and
 * status lines go to every open page over the live stream, and the transcript is saved at each
 * step so a reload shows it again. A call that needs the user's approval waits for the card's
 * Approve or Deny ({@link createChatApprovals}).
 */
export function createChatFeature(core: DashboardCore, options: ChatFeatureOptions): DashboardFeature {
  const maxQuestionChars = options.maxQuestionChars ?? CHAT_DEFAULTS.maxQuestionChars;
  const running = new Map<string, { turn: ChatTurn; controller: AbortController }>();
  /** Conversations whose deletion is under way: no new question may start there meanwhile. */
  const deleting = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  const { hub, store, logger } = { ...core, ...options };
  const approvals = createChatApprovals({
    logger,
    rules: options.approvalRules,
    pending: options.pendingApprovals,
  });

  const emit = (conversationId: string, turn: ChatTurn, kind: string, extra: Record<string, unknown> = {}) =>
    hub.broadcast('chat', { conversationId, turnId: turn.id, kind, ...extra });

  async function runTurn(conversationId: string, turn: ChatTurn, controller: AbortController): Promise<void> {
    const conversation = await store.load(conversationId);
    const persist = () =>
      store.save(conversation).catch((error) => logger.error({ err: error }, 'chat save failed'));
    const onEvent = turnEvents({
      turn,
      emit: (kind, extra) => emit(conversationId, turn, kind, extra),
      persist: () => void persist(),
      ...(options.recordCall ? { recordCall: options.recordCall } : {}),
    });
    try {
      const agent = await options.agent(turn.agent);
      if ('unavailable' in agent) {
        turn.answer = agent.unavailable;
        turn.failed = true;
      } else {
        const context = await options.context?.(conversationId);
        const answer = await agent.answer(turn.question, {
          conversationId,
          // A task the answer adds (TASK: add) belongs to the dashboard's user.
          askedBy: 'dashboard',
          signal: controller.signal,
          onEvent,
          approve: approvals.approverFor({
            conversationId,
            turn,
            emit: (kind, extra) => emit(conversationId, turn, kind, extra),
            persist: () => void persist(),
          }),
          ...(options.tools === undefined ? {} : { tools: options.tools }),
          ...(context === undefined ? {} : { context }),
        });
        turn.answer = answer.text;
        if (answer.error) turn.failed = true;
        if (answer.error?.fromModel) options.onModelFailure?.();
        if (answer.recalled?.length) turn.recalled = answer.recalled.map(recalledView);
      }
      turn.status = 'done';
    } catch (error) {
      turn.status = 'stopped';
      if (!controller.signal.aborted) turn.failed = true;
      turn.answer = controller.signal.aborted
        ? turn.draft || 'Stopped.'
        : `The answer failed: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      running.delete(conversationId);
      turn.draft = '';
      delete turn.statusText;
      delete turn.approval;
      turn.finishedAt = Date.now();
      emit(conversationId, turn, 'turn-end', { turn });
      await persist();
    }
  }

  return {
    routes: [
      approvals.route,
      ...createConversationRoutes({
        ...core,
        store,
        isRunning: (id) => running.has(id),
        deleting,
        ...(options.forget === undefined ? {} : { forget: options.forget }),
        ...(options.forgetMessage === undefined ? {} : { forgetMessage: options.forgetMessage }),
      }),
      {
        method: 'POST',
        path: /^\/api\/chat$/,
        kind: 'write',
        async handle({ request, response }) {
          const { conversationId, clientId, question, agent } = questionFrom(
            await readJsonBody(request),
            maxQuestionChars,
          );
          if (running.has(conversationId)) {
            throw new HttpError(409, 'The agent is still answering in this conversation: wait or stop it.');
          }
          if (deleting.has(conversationId)) {
            throw new HttpError(409, 'This conversation is being deleted: start a new chat.');
          }
          const turn: ChatTurn = {
            id: randomUUID(),
            question,
            askedAt: Date.now(),
            status: 'running',
            draft: '',
            tools: [],
            ...(agent !== undefined ? { agent } : {}),
          };
          const controller = new AbortController();
          // Claimed before the first await: a second question or a deletion sees it at once.
          running.set(conversationId, { turn, controller });
          try {
            const conversation = await store.load(conversationId);
            conversation.turns.push(turn);
            core.askingPages.set(conversationId, clientId);
            await store.save(conversation);
          } catch (error) {
            running.delete(conversationId);
            throw error;
          }
          emit(conversationId, turn, 'turn-start', { turn });
          const work = runTurn(conversationId, turn, controller);
          inFlight.add(work);
          void work.finally(() => inFlight.delete(work));
          sendJson(response, 202, { turnId: turn.id });
        },
      },
      {
        method: 'POST',
        path: /^\/api\/chat\/stop$/,
        kind: 'write',
        async handle({ request, response }) {
          const body = await readJsonBody(request);
          const conversationId = checkId(stringField(body, 'conversationId'), 'conversation id');
          const entry = running.get(conversationId);
          entry?.controller.abort(new Error('Stopped from the dashboard.'));
          sendJson(response, 200, { stopped: entry !== undefined });
        },
      },
    ],
    async close() {
      for (const { controller } of running.values())
        controller.abort(new Error('The dashboard is shutting down.'));
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** An earlier message the answer recalled, as the page shows it. */
function recalledView({ seq, speaker, text, at, outside }: NonNullable<AgentAnswer['recalled']>[number]) {
  return { seq, speaker, text, at, ...(outside ? { outside: true } : {}) };
}

/** The question a page posts to `/api/chat`, checked: each bad field answers 400 with one sentence. */
function questionFrom(body: Record<string, unknown>, maxQuestionChars: number) {
  const conversationId = checkId(stringField(body, 'conversationId'), 'conversation id');
  const clientId = checkId(stringField(body, 'clientId'), 'client id');
  const question = stringField(body, 'message').trim();
  const agent = body['agent'];
  if (
    agent !== undefined &&
    agent !== null &&
    (typeof agent !== 'string' || !/^[a-z0-9-]{1,64}$/.test(agent))
  )
    throw new HttpError(400, 'The agent must be an agent\'s id, such as "research".');
  if (question.length > maxQuestionChars)
    throw new HttpError(400, `The message is longer than ${maxQuestionChars} characters.`);
  return { conversationId, clientId, question, agent: typeof agent === 'string' ? agent : undefined };
}
