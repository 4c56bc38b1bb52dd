import type { TokenLedger } from '@macstats/core';
import type { Sql } from 'postgres';
import { describingFailures } from './postgres-errors.js';

/**
 * The daily token budgets' ledger in `macstats_token_usage` (one row per UTC day and key), shared
 * by every host on the database. Each count is one `insert … on conflict … tokens + n`, so hosts
 * counting at the same moment lose nothing. Rows of earlier days stay (a day is a few rows).
 */
export function createPostgresTokenLedger(sql: Sql, database: string): TokenLedger {
  return {
    spent: (day, keys) =>
      describingFailures(database, async () => {
        const rows = await sql<{ key: string; tokens: string }[]>`
          select key, tokens from macstats_token_usage where day = ${day} and key = any(${sql.array([...keys])})`;
        const found = new Map(rows.map((row) => [row.key, Number(row.tokens)]));
        return Object.fromEntries(keys.map((key) => [key, found.get(key) ?? 0]));
      }),
    add: (day, keys, tokens) =>
      describingFailures(database, async () => {
        if (keys.length === 0 || tokens <= 0) return;
        await sql`
          insert into macstats_token_usage (day, key, tokens)
          select ${day}::date, key, ${tokens} from unnest(${sql.array([...keys])}::text[]) as key
          on conflict (day, key) do update set tokens = macstats_token_usage.tokens + excluded.tokens`;
      }),
    day: (day) =>
      describingFailures(database, async () => {
        const rows = await sql<{ key: string; tokens: string }[]>`
          select key, tokens from macstats_token_usage where day = ${day} order by key`;
        return Object.fromEntries(rows.map((row) => [row.key, Number(row.tokens)]));
      }),
  };
}
