import { parseSchedules, type ScheduleSource, type SchedulesFile } from '@macstats/scheduler';
import type { Sql } from 'postgres';
import { STORE_POSTGRES_DEFAULTS } from './defaults.js';
import { storeError } from './error-codes.js';
import { describingFailures } from './postgres-errors.js';

/**
 * The schedules document (`{"schedules": [...]}`, the same JSON as `schedules.json`) kept in
 * one row per scope, with a version: an edit writes only over the version it read (else it reads
 * and changes again), so the SCHEDULER tool on one host and the dashboard on another never lose
 * each other's change; schedulers poll it.
 */
export class PostgresScheduleSource implements ScheduleSource {
  readonly description: string;
  readonly #sql: Sql;
  readonly #scope: string;

  readonly #database: string;

  constructor(sql: Sql, options: { scope: string; database: string }) {
    this.#sql = sql;
    this.#scope = options.scope;
    this.#database = options.database;
    this.description = `the schedules "${options.scope}" at ${options.database}`;
  }

  read(): Promise<string | undefined> {
    return describingFailures(this.#database, async () => {
      const rows = await this.#sql<{ document: string }[]>`
        select document from macstats_schedules where scope = ${this.#scope}`;
      return rows[0]?.document;
    });
  }

  edit<T>(change: (document: SchedulesFile) => T | Promise<T>): Promise<T> {
    return describingFailures(this.#database, () => this.#edit(change));
  }

  async #edit<T>(change: (document: SchedulesFile) => T | Promise<T>): Promise<T> {
    // Optimistic: read, change, write only if nobody wrote meanwhile (the version), else again.
    // No transaction is held open across the change (see writeFenced for why that matters).
    for (let attempt = 1; ; attempt += 1) {
      const rows = await this.#sql<{ document: string; version: string }[]>`
        select document, version from macstats_schedules where scope = ${this.#scope}`;
      const row = rows[0];
      const document = this.#parse(row?.document ?? '{"schedules": []}');
      const original = JSON.stringify(document);
      const result = await change(document);
      if (JSON.stringify(document) === original) return result;
      const text = `${JSON.stringify(document, null, 2)}\n`;
      const written =
        row === undefined
          ? await this.#sql`
              insert into macstats_schedules (scope, document, version) values (${this.#scope}, ${text}, 1)
              on conflict (scope) do nothing returning 1`
          : await this.#sql`
              update macstats_schedules set document = ${text}, version = version + 1, updated_at = now()
              where scope = ${this.#scope} and version = ${row.version} returning 1`;
      if (written.length > 0) return result;
      if (attempt >= STORE_POSTGRES_DEFAULTS.scheduleEditAttempts) {
        throw storeError(
          'SCHEDULES_BUSY',
          `${this.description} kept changing under this edit (${STORE_POSTGRES_DEFAULTS.scheduleEditAttempts} tries); it was not changed, try again.`,
        );
      }
    }
  }

  /**
   * Replaces the schedules with a `schedules.json` text (an import). Refuses a text that is not
   * a usable schedules file with `SCHEDULES_FILE_INVALID`; entries with errors are kept, as the
   * scheduler skips them and reports why.
   */
  async import(text: string): Promise<{ schedules: number; errors: string[] }> {
    const parsed = parseSchedules(text);
    if (!parsed.usable) {
      throw storeError('SCHEDULES_FILE_INVALID', `${parsed.errors[0] ?? ''} Nothing was imported.`);
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
      throw storeError(
        'SCHEDULES_FILE_INVALID',
        `${parsed.errors[0] ?? ''} Fix ${this.description} first; it was not changed.`,
      );
    }
    return JSON.parse(text) as SchedulesFile;
  }
}
