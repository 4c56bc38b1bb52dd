import { type FSWatcher, watch } from 'node:fs';
import type { Logger } from '@macstats/core';
import { ensurePrivateDir } from '@macstats/core/internal';
import {
  cancelTask,
  decideApproval,
  resumeTask,
  type Task,
  type TaskActionOutcome,
  type TaskStore,
  taskDetailView,
  taskSummaryView,
} from '@macstats/tasks';
import { HttpError, readJsonBody, sendJson } from './http-helpers.js';
import type { DashboardCore, DashboardFeature } from './start-dashboard.js';

/** A task with its steps, as the Tasks view shows one: the page shows the start of each result. */
const detail = (task: Task) => taskDetailView(task, { maxResultChars: 2_000 });

function answered(outcome: TaskActionOutcome) {
  if ('refusal' in outcome) throw new HttpError(409, outcome.refusal);
  return detail(outcome.task);
}

/**
 * The Tasks view's API: `GET /api/tasks` (each task with its state, and the approval it waits
 * for), `GET /api/tasks/<id>` (with its steps), and the owner's actions `POST
 * /api/tasks/<id>/cancel`, `/resume` and `/approve` (`{ "deny": true }` refuses). The folder is
 * watched, so each change (from this dashboard's runner or from `macstats start`) reaches every
 * open page as a `tasks` event within moments; the database's tasks are read every `lookMs`
 * while a page is open, so another host's change arrives within that. All behind the
 * dashboard's token, Host and Origin checks.
 */
export function createTasksFeature(
  core: DashboardCore,
  options: {
    store: TaskStore;
    logger: Logger;
    /** How often the database's tasks are read for changes other hosts made; default 5 s. */
    lookMs?: number | undefined;
  },
): DashboardFeature {
  const { store } = options;
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  // Many writes of one step come close together: one event per burst.
  const changed = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      core.hub.broadcast('tasks', { at: Date.now() });
    }, 100);
  };
  const { dir } = store;
  // A store without a folder (the database's) has nothing to watch: while a page is open it is
  // read every few seconds, and a change (another host's runner, `macstats task` elsewhere) is told.
  let looking: NodeJS.Timeout | undefined;
  if (!dir) {
    let seen: string | undefined;
    let busy = false;
    looking = setInterval(() => {
      if (busy || core.hub.count === 0) return;
      busy = true;
      store
        .list()
        .then(({ tasks }) => {
          const now = tasks.map((task) => `${task.id} ${task.updatedAt} ${task.state}`).join('\n');
          if (seen !== undefined && now !== seen) changed();
          seen = now;
        })
        .catch((error: unknown) => options.logger.warn({ err: error }, 'cannot read the tasks for changes'))
        .finally(() => {
          busy = false;
        });
    }, options.lookMs ?? 5_000);
    looking.unref();
  }
  if (dir)
    void ensurePrivateDir(dir)
      .then(() => {
        watcher = watch(dir, { persistent: false }, (_event, name) => {
          if (!name || name.endsWith('.md')) changed();
        });
        watcher.on('error', () => watcher?.close());
      })
      .catch((error: unknown) => options.logger.warn({ err: error }, 'cannot watch the tasks folder'));

  const taskOf = async (id: string) => {
    const task = await store.get(id);
    if (!task) throw new HttpError(404, `There is no task "${id}".`);
    return task;
  };

  return {
    routes: [
      {
        method: 'GET',
        path: /^\/api\/tasks$/,
        kind: 'read',
        async handle({ response }) {
          const { tasks, problems } = await store.list();
          sendJson(response, 200, { tasks: tasks.reverse().map(taskSummaryView), problems });
        },
      },
      {
        method: 'GET',
        path: /^\/api\/tasks\/([A-Za-z0-9._-]{1,81})$/,
        kind: 'read',
        async handle({ response, params }) {
          sendJson(response, 200, detail(await taskOf(params[0] ?? '')));
        },
      },
      {
        method: 'POST',
        path: /^\/api\/tasks\/([A-Za-z0-9._-]{1,81})\/(cancel|resume|approve)$/,
        kind: 'write',
        async handle({ request, response, params }) {
          const id = params[0] ?? '';
          const action = params[1];
          const body = await readJsonBody(request);
          if (action === 'cancel') sendJson(response, 200, answered(await cancelTask(store, id)));
          else if (action === 'resume') sendJson(response, 200, answered(await resumeTask(store, id)));
          else {
            const approvalId = typeof body['approval'] === 'string' ? body['approval'] : undefined;
            const remember = body['remember'];
            if (remember !== undefined && remember !== 'task' && remember !== 'always')
              throw new HttpError(
                400,
                'Say how long the approval holds: {"remember": "task"} or "always" (or leave it out: once).',
              );
            const decided = await decideApproval(store, id, {
              decision: body['deny'] === true ? 'denied' : 'approved',
              by: 'dashboard',
              ...(approvalId ? { approvalId } : {}),
              ...(remember ? { remember } : {}),
            });
            sendJson(response, 200, answered(decided));
          }
          changed();
        },
      },
    ],
    close() {
      watcher?.close();
      clearInterval(looking);
      if (timer) clearTimeout(timer);
    },
  };
}
