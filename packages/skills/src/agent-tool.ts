import type { Agent, AgentEvent, Tool, ToolResult } from '@macstats/core';
import { SKILLS_DEFAULTS } from './defaults.js';
import type { AgentProfile } from './load-agents.js';

/** What the AGENT tool needs of the agents it hands tasks to. */
export interface HandoffTargets {
  /** Every agent, for the prompt's list and the sentence naming them. */
  profiles(): readonly AgentProfile[];
  /** The agent `id` answering one level deeper; undefined when there is none. */
  agentAt(id: string, level: number): Agent | undefined;
}

/** Options of {@link createAgentTool}. */
export interface AgentToolOptions {
  targets: HandoffTargets;
  /** The level of the answer this tool is offered to: 1 for the agent the user asked. */
  level: number;
  /** Levels of agents in all. Default `SKILLS_DEFAULTS.maxHandoffDepth` (2). */
  maxDepth?: number | undefined;
  /** Time limit of one handoff. Default `SKILLS_DEFAULTS.handoffTimeoutMs`. */
  timeoutMs?: number | undefined;
  /** Characters of a description in the prompt's list. Default `SKILLS_DEFAULTS.listedDescriptionChars`. */
  listedDescriptionChars?: number | undefined;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** A status line for the asker while the other agent works ("research: FETCH_URL …"). */
function statusOf(id: string, event: AgentEvent): string | undefined {
  if (event.type === 'tool-call-start') return `${id}: ${event.tool} ${event.argument}`.slice(0, 200);
  if (event.type === 'status') return `${id}: ${event.text}`;
  if (event.type === 'planning-start') return `${id}: planning…`;
  return undefined;
}

/**
 * The `AGENT` tool: `AGENT: <id> <task>` hands a task to another agent, which answers it as a
 * separate answer with its own model, tools, skills and prompt; its reply is this tool's result.
 * The handoff shares the caller's signal (a stop cancels both), its time limit and its tool
 * budget (the other agent may use the runs the caller has left, and what it uses counts against
 * the caller), and containment goes across it: the other answer starts with the caller's labels
 * and approver, the task counts as the model's words, not the user's, and the result reports
 * what the other answer brought in. At most `maxDepth` levels: an agent handed a task cannot
 * hand it on. The result carries the other answer's steps.
 */
export function createAgentTool(options: AgentToolOptions): Tool {
  const maxDepth = options.maxDepth ?? SKILLS_DEFAULTS.maxHandoffDepth;
  const descriptionChars = options.listedDescriptionChars ?? SKILLS_DEFAULTS.listedDescriptionChars;
  const { targets, level } = options;
  return {
    name: 'AGENT',
    description: 'Hands a sub-task to an agent below, which answers it with its own model and tools.',
    usage: 'AGENT: <id> <task>',
    // The call itself reads, sends and keeps nothing; the other answer's calls are checked there.
    labels: {},
    timeoutMs: options.timeoutMs ?? SKILLS_DEFAULTS.handoffTimeoutMs,
    details: () => {
      const profiles = targets.profiles();
      if (profiles.length === 0) return 'No agents are configured.';
      return `Agents:\n${profiles.map((profile) => `- ${profile.id}: ${cut(profile.description, descriptionChars)}`).join('\n')}`;
    },
    async run(argument, context): Promise<ToolResult> {
      const [id = '', ...rest] = argument.trim().split(/\s+/);
      const task = rest.join(' ').trim();
      if (level >= maxDepth)
        return {
          text: `Not run: an agent that was handed a task cannot hand it on (at most ${maxDepth} levels of agents). Do the task yourself.`,
          isError: true,
        };
      const target = targets.agentAt(id.toLowerCase(), level + 1);
      if (!target) {
        const ids = targets.profiles().map((profile) => profile.id);
        return {
          text: `There is no agent "${id}"${ids.length > 0 ? `; the agents are: ${ids.join(', ')}` : ''}.`,
          isError: true,
        };
      }
      if (task === '') return { text: `AGENT needs a task: AGENT: ${id} <task>.`, isError: true };
      const answer = await target.answer(task, {
        signal: context.signal,
        ...(context.approve ? { approve: context.approve } : {}),
        contextLabels: {
          outside: context.labels?.outside ?? [],
          private: context.labels?.private ?? [],
          outsideOrigins: context.labels?.origins ?? [],
          questionByModel: true,
        },
        ...(context.toolRunsLeft !== undefined ? { maxToolIterations: context.toolRunsLeft } : {}),
        onEvent: (event) => {
          const line = statusOf(id, event);
          if (line) context.onStatus?.(line);
        },
      });
      return {
        text: answer.error ? `The agent ${id} could not answer: ${answer.text}` : answer.text,
        ...(answer.error ? { isError: true } : {}),
        ...(answer.labels ? { labels: answer.labels } : {}),
        toolRuns: answer.toolCalls.length,
        steps: answer.steps,
      };
    },
  };
}
