import { randomUUID } from 'node:crypto';
import {
  buildNewTask,
  checkTaskId,
  type NewTask,
  parseTaskRecord,
  recordDelivery,
  TASK_ID_PATTERN,
  type Task,
  type TaskListing,
  type TaskStore,
} from '@macstats/tasks';
import type { JSONValue, Sql } from 'postgres';
import { STORE_POSTGRES_DEFAULTS } from './defaults.js';
import { storeError } from './error-codes.js';
import { describingFailures } from './postgres-errors.js';

/** Options of {@link createPostgresTaskStore}. */
export interface PostgresTaskStoreOptions {
  /** `host:port/database`, for messages. */
  database: string;
  /** How long a task's lease lasts without renewal, in milliseconds. Default 15 000. */
  leaseMs?: number | undefined;
  /** The agents a task may name; without it any agent is accepted. */
  agents?: (() => readonly string[]) | undefined;
  /** Clock of the records' times (the lease runs on the server's clock). Default `() => new Date()`. */
  now?: (() => Date) | undefined;
}

const json = (task: Task) => task as unknown as JSONValue;

/** The task store on PostgreSQL: a `TaskStore` with leases, and the import of a task kept elsewhere. */
export interface PostgresTaskStore extends TaskStore {
  /** Copies a task as it is (`macstats database import`); false when the database has one with its id. */
  import(task: Task): Promise<boolean>;
}

/**
 * Tasks in `macstats_tasks`, one row per task (the record as JSON and a version), shared by every
 * host on the database: the task store of `@macstats/tasks` for several hosts. Each store is one
 * holder of leases (a random id). `claim` takes a task's lease (or renews its own) in one
 * statement: a free or expired lease is taken with its epoch raised. While this store holds a
 * task, every write of it is one `update … where version = <read> and lease_holder = <this> and
 * lease_epoch = <held> and lease_expires_at > now()`: a host that lost the task (its lease expired
 * and another took it) writes nothing and gets `TASK_LEASE_LOST`. Writers that hold no lease
 * (`task cancel`, a dependency's failure) write over the version they read; when another write
 * came between, the change is applied again to the new record.
 */
export function createPostgresTaskStore(sql: Sql, options: PostgresTaskStoreOptions): PostgresTaskStore {
  const { database } = options;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? STORE_POSTGRES_DEFAULTS.leaseMs;
  const holder = randomUUID();
  const held = new Map<string, string>();
  const guarded = <T>(work: () => Promise<T>) => describingFailures(database, work);

  function parse(id: string, value: unknown): { task: Task } | { problem: string } {
    const checked = parseTaskRecord(value);
    if ('problem' in checked) return { problem: `The task ${id} in the database ${checked.problem}` };
    return checked.task.id === id
      ? checked
      : { problem: `The task row ${id} holds task ${checked.task.id}, so it is skipped.` };
  }

  async function read(id: string): Promise<{ task: Task; version: string } | undefined> {
    if (!TASK_ID_PATTERN.test(id)) return undefined;
    const rows = await sql<{ record: unknown; version: string }[]>`
      select record, version from macstats_tasks where id = ${id}`;
    const row = rows[0];
    if (!row) return undefined;
    const parsed = parse(id, row.record);
    return 'task' in parsed ? { task: parsed.task, version: row.version } : undefined;
  }

  async function list(): Promise<TaskListing> {
    const rows = await sql<{ id: string; record: unknown }[]>`
      select id, record from macstats_tasks order by created_at, id`;
    const tasks: Task[] = [];
    const problems: string[] = [];
    for (const row of rows) {
      const parsed = parse(row.id, row.record);
      if ('task' in parsed) tasks.push(parsed.task);
      else problems.push(parsed.problem);
    }
    return { tasks, problems };
  }

  async function add(input: NewTask): Promise<Task> {
    if (input.id !== undefined) {
      checkTaskId(input.id);
      const existing = await read(input.id);
      if (existing) return existing.task;
    }
    const { tasks } = await list();
    const task = buildNewTask(input, tasks, { now: now(), agents: options.agents?.() });
    const inserted = await sql`
      insert into macstats_tasks (id, record, created_at) values (${task.id}, ${sql.json(json(task))}, ${task.createdAt})
      on conflict (id) do nothing returning 1`;
    // The same id added at the same moment by another host: that one is the task.
    if (inserted.length === 0) return (await read(task.id))?.task ?? task;
    return task;
  }

  async function update(id: string, change: (task: Task) => void): Promise<Task | undefined> {
    for (let attempt = 1; ; attempt += 1) {
      const found = await read(id);
      if (!found) return undefined;
      const { task } = found;
      const before = task.state;
      change(task);
      task.updatedAt = now().toISOString();
      // A post about the change goes in the same write: a crash after it still posts it.
      if (task.state !== before) recordDelivery(task, before, task.updatedAt);
      const epoch = held.get(id);
      const written =
        epoch === undefined
          ? await sql`
              update macstats_tasks set record = ${sql.json(json(task))}, version = version + 1
              where id = ${id} and version = ${found.version} returning 1`
          : await sql`
              update macstats_tasks set record = ${sql.json(json(task))}, version = version + 1
              where id = ${id} and version = ${found.version}
                and lease_holder = ${holder} and lease_epoch = ${epoch} and lease_expires_at > now()
              returning 1`;
      if (written.length > 0) return task;
      if (epoch !== undefined && !(await stillHeld(id, epoch))) {
        held.delete(id);
        throw storeError(
          'TASK_LEASE_LOST',
          `This host no longer holds task ${id} at ${database} (another host took it over), so nothing was recorded.`,
        );
      }
      if (attempt >= STORE_POSTGRES_DEFAULTS.taskUpdateAttempts)
        throw storeError(
          'TASK_BUSY',
          `Task ${id} at ${database} kept changing under this update (${attempt} tries); it was not saved, try again.`,
        );
    }
  }

  async function stillHeld(id: string, epoch: string): Promise<boolean> {
    const rows = await sql`
      select 1 from macstats_tasks
      where id = ${id} and lease_holder = ${holder} and lease_epoch = ${epoch} and lease_expires_at > now()`;
    return rows.length > 0;
  }

  async function claim(id: string): Promise<boolean> {
    const mine = held.get(id) ?? '-1';
    const rows = await sql<{ lease_epoch: string }[]>`
      update macstats_tasks set
        lease_epoch = case when lease_holder = ${holder} and lease_epoch = ${mine} and lease_expires_at > now()
          then lease_epoch else lease_epoch + 1 end,
        lease_holder = ${holder},
        lease_expires_at = now() + ${leaseMs} * interval '1 millisecond'
      where id = ${id}
        and (lease_holder is null or lease_expires_at <= now()
          or (lease_holder = ${holder} and lease_epoch = ${mine}))
      returning lease_epoch`;
    const row = rows[0];
    if (!row) {
      held.delete(id);
      return false;
    }
    held.set(id, row.lease_epoch);
    return true;
  }

  async function release(id: string): Promise<void> {
    const epoch = held.get(id);
    if (epoch === undefined) return;
    held.delete(id);
    await sql`
      update macstats_tasks set lease_holder = null, lease_expires_at = null
      where id = ${id} and lease_holder = ${holder} and lease_epoch = ${epoch}`;
  }

  return {
    leaseMs,
    list: () => guarded(list),
    get: (id) => guarded(async () => (await read(id))?.task),
    add: (input) => guarded(() => add(input)),
    update: (id, change) => guarded(() => update(id, change)),
    claim: (id) => guarded(() => claim(id)),
    release: (id) => guarded(() => release(id)),
    import: (task) =>
      guarded(async () => {
        checkTaskId(task.id);
        const inserted = await sql`
          insert into macstats_tasks (id, record, created_at) values (${task.id}, ${sql.json(json(task))}, ${task.createdAt})
          on conflict (id) do nothing returning 1`;
        return inserted.length > 0;
      }),
  };
}
