import { type Agent, type ContextLabelsInput, parseToolCall, type Tool, toToolResult } from '@macstats/core';
import type { Schedule, ScheduleLabels } from './schedule.js';
import { schedulerError } from './scheduler-errors.js';
import type { ExecuteTask } from './scheduler-types.js';

/** Options of {@link createTaskExecutor}. */
export interface TaskExecutorOptions {
  /** The tools a direct tool line may call. */
  tools: Tool[];
  /**
   * Answers free-text tasks: core's `Agent`, or any object with its `answer` method. Without it,
   * a free-text task fails with `NO_AGENT`.
   */
  agent?: Pick<Agent, 'answer'> | undefined;
  /**
   * Tool names a task may call directly, without the model, as in the original app.
   * Default: `['FETCH_URL', 'BRAVE_SEARCH']` (those of them that are in `tools`).
   */
  directTools?: string[] | undefined;
  /**
   * The agent of a schedule's `agent` field (an agent profile's id); undefined when there is no
   * such agent, and the run fails with `AGENT_NOT_FOUND` and one sentence. Without it, a schedule
   * naming an agent fails the same way.
   */
  agentFor?: ((id: string) => Pick<Agent, 'answer'> | undefined) | undefined;
  /** Conversation id for a schedule's agent runs, to give them memory. Default: none (every run fresh). */
  conversationId?: ((schedule: Schedule) => string | undefined) | undefined;
}

/** Default of {@link TaskExecutorOptions.directTools}. */
export const DEFAULT_DIRECT_TOOLS: readonly string[] = ['FETCH_URL', 'BRAVE_SEARCH'];

/**
 * Builds the scheduler's `execute`: a task that is one tool line (`FETCH_URL: https://…`) runs
 * that tool directly, without the model; anything else is answered by the agent with its tools.
 * A tool's refusal (`isError`) rejects with `TOOL_FAILED` and the tool's words; an answer that
 * failed (`answer.error`, the model's server down, say) rejects with `AGENT_FAILED` and the
 * agent's sentence, so the run is recorded as `error` and delivered as a failure.
 *
 * @example
 * const execute = createTaskExecutor({ tools: [fetchUrl, braveSearch], agent });
 * createScheduler({ file, execute });
 */
export function createTaskExecutor(options: TaskExecutorOptions): ExecuteTask {
  const allowed = new Set((options.directTools ?? DEFAULT_DIRECT_TOOLS).map((name) => name.toUpperCase()));
  const direct = options.tools.filter((tool) => allowed.has(tool.name.toUpperCase()));

  return async (schedule, signal) => {
    const task = schedule.task.trim();
    // A schedule that carries outside content's labels runs only through the agent, whose policy
    // reads them: a direct tool line would run with no check at all.
    const tool = schedule.labels ? undefined : directTool(task, direct);
    if (tool !== undefined) {
      const call = parseToolCall(task, direct);
      if (call === null || call.argument.trim() === '') {
        throw schedulerError('TOOL_FAILED', `${tool.name} needs an argument: "${tool.usage}".`);
      }
      const result = toToolResult(await tool.run(call.argument, { signal }));
      if (result.isError === true) throw schedulerError('TOOL_FAILED', result.text);
      return result.text;
    }
    if (options.agent === undefined) {
      throw schedulerError('NO_AGENT', `Schedule "${schedule.id}" needs the model, and none is configured.`);
    }
    const agent = schedule.agent === undefined ? options.agent : options.agentFor?.(schedule.agent);
    if (agent === undefined) {
      throw schedulerError(
        'AGENT_NOT_FOUND',
        `Schedule "${schedule.id}" names the agent "${schedule.agent}", which does not exist: add it under agents/ or change the schedule.`,
      );
    }
    const conversationId = options.conversationId?.(schedule);
    const answer = await agent.answer(task, {
      signal,
      ...(conversationId === undefined ? {} : { conversationId }),
      ...(schedule.model ? { model: schedule.model } : {}),
      ...(schedule.prompt ? { systemPromptExtra: schedule.prompt } : {}),
      linkScope: `schedule:${schedule.id}`,
      ...(schedule.labels ? { contextLabels: scheduleContextLabels(schedule.labels) } : {}),
    });
    if (answer.error !== undefined) {
      throw schedulerError('AGENT_FAILED', answer.text.trim() || answer.error.message, {
        cause: answer.error,
      });
    }
    return answer.text;
  };
}

/** The direct tool a task calls when the whole task is one `NAME: argument` line. */
function directTool(task: string, tools: Tool[]): Tool | undefined {
  if (task.includes('\n')) return undefined;
  const name = /^([A-Za-z][A-Za-z0-9_]*)\s*:/.exec(task)?.[1]?.toUpperCase();
  return name === undefined ? undefined : tools.find((tool) => tool.name.toUpperCase() === name);
}

/** The containment labels a run of a labelled schedule starts with: its task is that content's words. */
function scheduleContextLabels(labels: ScheduleLabels): ContextLabelsInput {
  return {
    outside: labels.outside.length > 0 ? labels.outside : ['a schedule added after outside content was read'],
    private: labels.private,
    outsideOrigins: labels.origins,
    questionByModel: true,
  };
}
