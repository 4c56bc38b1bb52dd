import { MacstatsError } from '@macstats/core';
import { parseSchedules, type ScheduleSource, type SchedulesFile } from '@macstats/scheduler';
import type { Sql } from 'postgres';

/**
 * The schedules document (`{"schedules": [...]}`, the same JSON as `schedules.json`) kept in
 * one row per scope. Edits lock the row, so the SCHEDULER tool on one host and the dashboard on
 * another never lose each other's change; schedulers poll it.
 */
export class PostgresScheduleSource implements ScheduleSource {
  readonly description: string;
  readonly #sql: Sql;
  readonly #scope: string;

  constructor(sql: Sql, options: { scope: string; database: string }) {
    this.#sql = sql;
    this.#scope = options.scope;
    this.description = `the schedules "${options.scope}" at ${options.database}`;
  }

  async read(): Promise<string | undefined> {
    const rows = await this.#sql<{ document: string }[]>`
      select document from macstats_schedules where scope = ${this.#scope}`;
    return rows[0]?.document;
  }

  async edit<T>(change: (document: SchedulesFile) => T | Promise<T>): Promise<T> {
    return this.#sql.begin(async (tx) => {
      await tx`
        insert into macstats_schedules (scope, document, version) values (${this.#scope}, '{"schedules": []}', 0)
        on conflict (scope) do nothing`;
      const rows = await tx<{ document: string }[]>`
        select document from macstats_schedules where scope = ${this.#scope} for update`;
      const text = rows[0]?.document ?? '{"schedules": []}';
      const document = this.#parse(text);
      const original = JSON.stringify(document);
      const result = await change(document);
      if (JSON.stringify(document) !== original) {
        await tx`
          update macstats_schedules
          set document = ${`${JSON.stringify(document, null, 2)}\n`}, version = version + 1, updated_at = now()
          where scope = ${this.#scope}`;
      }
      return result;
    }) as Promise<T>;
  }

  /**
   * Replaces the schedules with a `schedules.json` text (an import). Refuses a text that is not
   * a usable schedules file with `SCHEDULES_FILE_INVALID`; entries with errors are kept, as the
   * scheduler skips them and reports why.
   */
  async import(text: string): Promise<{ schedules: number; errors: string[] }> {
    const parsed = parseSchedules(text);
    if (!parsed.usable) {
      throw new MacstatsError('SCHEDULES_FILE_INVALID', `${parsed.errors[0] ?? ''} Nothing was imported.`);
    }
    await this.edit((document) => {
      const incoming = JSON.parse(text) as SchedulesFile;
      for (const key of Object.keys(document)) delete document[key];
      Object.assign(document, incoming);
    });
    return { schedules: parsed.schedules.length, errors: parsed.errors };
  }

  #parse(text: string): SchedulesFile {
    const parsed = parseSchedules(text);
    if (!parsed.usable) {
      throw new MacstatsError(
        'SCHEDULES_FILE_INVALID',
        `${parsed.errors[0] ?? ''} Fix ${this.description} first; it was not changed.`,
      );
    }
    return JSON.parse(text) as SchedulesFile;
  }
}
