import { labelsOf, type Tool, type ToolResult } from '@macstats/core';
import { parseTaskCommand } from './task-command.js';
import type { TaskStore } from './task-store.js';
import type { Task, TaskCall, TaskOutcome } from './task-types.js';

/** What the model reads for a call that sends or persists and was cut by a crash: it may have happened. */
export const CUT_CALL_SENTENCE =
  'This call was started before the task was interrupted (a crash or a restart), and it may or may not have happened. It was not repeated: check whether it took effect before doing it again.';

/** Options of {@link createStepRecorder}. */
export interface StepRecorderOptions {
  store: TaskStore;
  taskId: string;
  step: number;
  /** Calls this step recorded before it was interrupted: replayed from the record, never run again. */
  recorded: readonly TaskCall[];
  now: () => Date;
  /** Called when a write finds the task cancelled: the runner aborts the step. */
  onCancelled: () => void;
}

function toResult(value: string | ToolResult): ToolResult {
  return typeof value === 'string' ? { text: value } : value;
}

function outcomeOf(call: TaskCall, now: Date): TaskOutcome | undefined {
  if (call.tool !== 'TASK' || call.result?.isError) return undefined;
  const command = parseTaskCommand(call.argument, now);
  if (command.verb === 'done') return { state: 'done', result: command.text };
  if (command.verb === 'fail')
    return { state: 'failed', error: /[.!?]$/.test(command.text) ? command.text : `${command.text}.` };
  if (command.verb === 'wait') return { state: 'waiting', wakeAt: command.wakeAt.toISOString() };
  return undefined;
}

/**
 * Wraps a step's tools so that each call is recorded in the task's file before it runs (the
 * intent) and again when it finishes (the result), and so that a resumed step gets the results
 * of calls it already made from the record instead of running them again.
 */
export function createStepRecorder(options: StepRecorderOptions): { wrap(tools: readonly Tool[]): Tool[] } {
  const { store, taskId, step } = options;
  const replay = options.recorded.map((call, index) => ({ call, index, used: false }));
  let next = options.recorded.length;

  async function save(index: number, call: TaskCall): Promise<void> {
    const saved = await store.update(taskId, (task: Task) => {
      const record = task.steps.find((s) => s.number === step);
      if (!record) return;
      record.calls[index] = call;
      if (call.tool === 'TASK' && call.status === 'finished' && !call.result?.isError) {
        const command = parseTaskCommand(call.argument, options.now());
        if (command.verb === 'note') task.notes.push(command.text);
      }
    });
    if (!saved || saved.state === 'cancelled') options.onCancelled();
  }

  function wrapOne(tool: Tool): Tool {
    const run: Tool['run'] = async (argument, context) => {
      const earlier = replay.find(
        (entry) => !entry.used && entry.call.tool === tool.name && entry.call.argument === argument,
      );
      if (earlier) earlier.used = true;
      if (earlier?.call.status === 'finished' && earlier.call.result) return earlier.call.result;
      const labels = labelsOf(tool, {
        argument,
        arguments: context.arguments,
        conversationId: context.conversationId,
        parsed: context.parsed,
      });
      const base: TaskCall = {
        tool: tool.name,
        argument,
        status: 'started',
        ...(labels.outside ? { outside: true } : {}),
        ...(labels.outside && labels.sendsTo ? { from: labels.sendsTo } : {}),
        ...(labels.private ? { private: true } : {}),
        ...(labels.sendsTo !== undefined || labels.persists ? { effect: true } : {}),
      };
      const index = earlier ? earlier.index : next++;
      if (earlier && base.effect) {
        // Cut mid-way: it may have reached its destination. Say so rather than send twice.
        const result: ToolResult = { isError: true, text: CUT_CALL_SENTENCE };
        await save(index, { ...base, status: 'finished', result });
        return result;
      }
      await save(index, base);
      const result = toResult(await tool.run(argument, context));
      const finished: TaskCall = {
        ...base,
        status: 'finished',
        result: {
          text: result.text,
          ...(result.isError ? { isError: true } : {}),
          ...(result.labels ? { labels: result.labels } : {}),
        },
      };
      const outcome = outcomeOf(finished, options.now());
      await save(index, outcome ? { ...finished, outcome } : finished);
      return result;
    };
    // Everything else (labels, schema, hints, details) is the tool's own.
    return new Proxy(tool, {
      get(target, property) {
        if (property === 'run') return run;
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  return { wrap: (tools) => tools.map(wrapOne) };
}
