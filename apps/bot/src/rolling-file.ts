import { readdirSync, statSync, unlink } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';

/** Options of {@link openRollingFile}. */
export interface RollingFileOptions {
  /** The folder of the files; it must exist. */
  dir: string;
  /** The files are `<name>.<N>.log`, N counting up from 1; the highest is the one written. */
  name: string;
  /** Bytes a file holds before the next line goes to a new one. */
  maxBytes: number;
  /** Older files kept besides the one written; older ones than that are deleted. */
  keep: number;
  /** Mode a new file is created with. */
  mode: number;
}

/** The stream {@link openRollingFile} returns: pino's own file stream (sonic-boom). */
export type RollingFile = ReturnType<typeof pino.destination>;

/**
 * Parses a size such as `5m`, `512k` or `1g` (a bare number is bytes) into bytes; throws one
 * sentence on anything else.
 */
export function parseFileSize(size: string): number {
  const found = /^(\d+)\s*([kmg]?)b?$/i.exec(size.trim());
  if (!found) throw new Error(`the log file size "${size}" is not a size such as 5m, 512k or 1g`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(found[2] ?? '').toLowerCase()] ?? 1;
  return Number(found[1]) * unit;
}

/**
 * A file stream for pino that moves to `<name>.<N+1>.log` once the current file reaches
 * `maxBytes`, and deletes the files older than the `keep` before it. It goes on appending to the
 * highest-numbered file a previous run left, so a restart neither starts a new file nor loses
 * the count. pino's own stream does the writing: a roll is its `reopen` on the next name.
 */
export function openRollingFile(options: RollingFileOptions): RollingFile {
  const { dir, name } = options;
  const pattern = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.log$`);
  const pathOf = (number: number) => join(dir, `${name}.${number}.log`);
  const numbers = () =>
    readdirSync(dir).flatMap((entry) => {
      const found = pattern.exec(entry);
      return found ? [Number(found[1])] : [];
    });
  let number = Math.max(1, ...numbers());
  let size = statSync(pathOf(number), { throwIfNoEntry: false })?.size ?? 0;
  const stream = pino.destination({ dest: pathOf(number), append: true, mode: options.mode, sync: false });
  let rolling = false;
  stream.on('write', (written: number) => {
    // What sonic-boom still writes to the old file while the new one opens counts for neither.
    if (rolling) return;
    size += written;
    if (size < options.maxBytes) return;
    rolling = true;
    number += 1;
    // sonic-boom finishes the write under way on the old file, then opens the new one.
    stream.reopen(pathOf(number));
  });
  stream.on('ready', () => {
    if (!rolling) return;
    rolling = false;
    size = 0;
    const oldest = number - options.keep;
    for (const old of numbers()) if (old < oldest) unlink(pathOf(old), () => {});
  });
  return stream;
}
