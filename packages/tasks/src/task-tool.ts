import { type CallLabels, defineTool, MacstatsError, type Tool } from '@macstats/core';
import { parseTaskCommand, type TaskCommand } from './task-command.js';
import { taskLabels, tasksLabels } from './task-labels.js';
import type { TaskStore } from './task-store.js';
import type { Task } from './task-types.js';

/** Options of {@link createTaskTool}. */
export interface TaskToolOptions {
  store: TaskStore;
  /** The task this answer works on (a runner's step); without it, done, fail, wait and note are refused. */
  taskId?: string | undefined;
  /**
   * Who the tasks it adds belong to. Default: the current task's owner; else who asked the answer
   * (`ToolContext.askedBy`, or `model`), with progress to the channel of a Discord answer
   * (conversation `discord-<channel id>`).
   */
  owner?: Task['owner'] | undefined;
  /** The id of the next task `add` makes, so that a repeat after a crash finds it instead of adding another. */
  nextAddId?: (() => string) | undefined;
  /** Clock. Default `() => new Date()`. */
  now?: (() => Date) | undefined;
}

/** A TASK command that can run. */
type RunnableCommand = Exclude<TaskCommand, { verb: 'invalid' }>;

/** What one TASK call is, for containment: ending, pausing or noting its own task keeps nothing others read. */
function taskCallLabels({ verb }: RunnableCommand): CallLabels {
  if (verb === 'add') return { persists: true };
  if (verb === 'list' || verb === 'show') return { private: true };
  return {};
}

/**
 * The owner of a task a chat answer adds: who asked the answer (else `model`); a Discord answer's
 * task reports to the asking channel.
 */
function ownerOf(conversationId: string | undefined, askedBy: string | undefined): Task['owner'] {
  const channel = /^discord-(\d{1,20})$/.exec(conversationId ?? '')?.[1];
  const by = askedBy?.trim() || 'model';
  return channel ? { by, reportTo: `discord:${channel}` } : { by };
}

/**
 * Whether `viewer` may list or show `task`: a Discord user sees only the tasks they own (others in
 * the server may not read theirs); the machine's owner (the dashboard, the CLI) sees every task.
 */
function visible(task: Task, viewer: string | undefined): boolean {
  return !viewer?.startsWith('discord:') || task.owner.by === viewer;
}

function describe(task: Task): string {
  const end = task.result !== undefined ? `: ${task.result}` : task.error ? `: ${task.error}` : '';
  return `${task.id} [${task.state}] ${task.title} (${task.steps.length} step${task.steps.length === 1 ? '' : 's'})${end}`;
}

/**
 * The `TASK` tool: the model ends its task (`done <result>`, `fail <reason>`), pauses it
 * (`wait <time or duration>`), keeps a note, and adds, lists and shows tasks. Ending its own
 * task takes effect when the step ends, from the step's record.
 */
export function createTaskTool(options: TaskToolOptions): Tool {
  const now = options.now ?? (() => new Date());
  const { store, taskId } = options;
  // Who reads a list or show: the owner of the task this step works on, else who asked the answer.
  const viewerOf = async (askedBy: string | undefined): Promise<string | undefined> =>
    options.owner?.by ?? (taskId ? (await store.get(taskId))?.owner.by : undefined) ?? askedBy;
  return defineTool<RunnableCommand>({
    name: 'TASK',
    description:
      'Works on durable tasks: end yours with done <result> or fail <reason>, pause it with wait <ISO time or 10m>, keep a note, or add, list and show tasks.',
    usage:
      'TASK: done <result> | fail <reason> | wait <time> | note <text> | add <instructions> | list | show <id>',
    parse: ({ argument }) => {
      const command = parseTaskCommand(argument, now());
      return command.verb === 'invalid' ? { problem: command.sentence } : { input: command };
    },
    labels: taskCallLabels,
    async run(command, context) {
      switch (command.verb) {
        case 'done':
        case 'fail':
        case 'wait':
        case 'note': {
          if (!taskId)
            return { isError: true, text: `TASK: ${command.verb} works only inside a task's step.` };
          if (command.verb === 'wait') return `The task will wait until ${command.wakeAt.toISOString()}.`;
          if (command.verb === 'note') return 'Noted: later steps of this task will read it.';
          return command.verb === 'done'
            ? 'The task will be marked done with this result when this step ends.'
            : 'The task will be marked failed with this reason when this step ends.';
        }
        case 'list': {
          const viewer = await viewerOf(context.askedBy);
          const tasks = (await store.list()).tasks.filter((task) => visible(task, viewer));
          if (tasks.length === 0) return 'There are no tasks.';
          // What the tasks read comes back with their text: a result a page dictated stays outside.
          return { text: tasks.map(describe).join('\n'), labels: tasksLabels(tasks) };
        }
        case 'show': {
          const task = await store.get(command.id);
          if (!task || !visible(task, await viewerOf(context.askedBy)))
            return { isError: true, text: `There is no task "${command.id}".` };
          return { text: `${describe(task)}\n${task.instructions}`, labels: taskLabels(task) };
        }
        case 'add': {
          const current = taskId ? await store.get(taskId) : undefined;
          try {
            const added = await store.add({
              instructions: command.text,
              after: command.after,
              byModel: true,
              owner:
                options.owner ??
                (current
                  ? { ...current.owner, by: `task:${current.id}` }
                  : ownerOf(context.conversationId, context.askedBy)),
              ...(current ? { agent: current.agent } : {}),
              ...(options.nextAddId ? { id: options.nextAddId() } : {}),
            });
            return `Added task ${added.id}.`;
          } catch (error) {
            if (MacstatsError.isInstance(error)) return { isError: true, text: error.message };
            throw error;
          }
        }
      }
    },
  });
}
