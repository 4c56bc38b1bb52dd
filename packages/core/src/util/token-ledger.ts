import { readFile } from 'node:fs/promises';
import { writePrivateFile } from './private-files.js';

/**
 * Where the tokens spent each UTC day are kept, by budget key (`agent:<id>`, `channel:<id>`).
 * A file under `$MACSTATS_HOME` ({@link createFileTokenLedger}) or a PostgreSQL table
 * (`@macstats/store-postgres`), so a restart does not give a spent budget back.
 */
export interface TokenLedger {
  /** Tokens spent on `day` (`2026-11-27`, UTC) by each of `keys`; a key never counted reads 0. */
  spent(day: string, keys: readonly string[]): Promise<Record<string, number>>;
  /** Adds `tokens` to each of `keys` on `day`. */
  add(day: string, keys: readonly string[], tokens: number): Promise<void>;
  /** Every key counted on `day`, with its tokens (for the dashboard and `/metrics`). */
  day(day: string): Promise<Record<string, number>>;
}

interface LedgerFile {
  day: string;
  spent: Record<string, number>;
}

function isLedgerFile(value: unknown): value is LedgerFile {
  if (typeof value !== 'object' || value === null) return false;
  const { day, spent } = value as Partial<LedgerFile>;
  return (
    typeof day === 'string' &&
    typeof spent === 'object' &&
    spent !== null &&
    Object.values(spent).every((tokens) => typeof tokens === 'number' && Number.isFinite(tokens))
  );
}

/**
 * A ledger in one JSON file holding today's counts (an earlier day's are dropped when a new day
 * is first counted), written atomically (a temporary file, then a rename). Writes from one process
 * are serialized; two processes counting into one file at the same moment may lose one count
 * (use `DATABASE_URL` for hosts that share a budget). A file that does not read counts from zero.
 *
 * @example
 * const ledger = createFileTokenLedger(join(home, 'token-budget.json'));
 */
export function createFileTokenLedger(file: string): TokenLedger {
  let queue: Promise<unknown> = Promise.resolve();
  const read = async (): Promise<LedgerFile | undefined> => {
    try {
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      return isLedgerFile(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  };
  const forDay = async (day: string) => {
    const saved = await read();
    return saved?.day === day ? saved.spent : {};
  };
  return {
    async spent(day, keys) {
      const spent = await forDay(day);
      return Object.fromEntries(keys.map((key) => [key, spent[key] ?? 0]));
    },
    add(day, keys, tokens) {
      const next = queue.then(async () => {
        const spent = await forDay(day);
        for (const key of keys) spent[key] = (spent[key] ?? 0) + tokens;
        await writePrivateFile(file, `${JSON.stringify({ day, spent }, null, 2)}\n`);
      });
      queue = next.catch(() => {});
      return next;
    },
    day: (day) => forDay(day),
  };
}
