import { readFile } from 'node:fs/promises';
import { writePrivateFile } from '@macstats/core/internal';
import type { EvalReport } from './eval-report.js';

/** Writes the report atomically (a temporary file in the same folder, then a rename). */
export async function saveEvalReport(file: string, report: EvalReport): Promise<void> {
  await writePrivateFile(file, `${JSON.stringify(report, null, 2)}\n`);
}

/** The last saved report, or null when there is none or it cannot be read. */
export async function readEvalReport(file: string): Promise<EvalReport | null> {
  try {
    const report = JSON.parse(await readFile(file, 'utf8')) as EvalReport;
    return report?.version === 1 && Array.isArray(report.models) ? report : null;
  } catch {
    return null;
  }
}
