import { readFile } from 'node:fs/promises';
import type { EvalModelSummary, EvalSummary } from '../shared/ollama-types.js';

const isShare = (value: unknown): value is number => typeof value === 'number' && value >= 0 && value <= 1;

function modelSummary(entry: unknown): EvalModelSummary | null {
  const item = entry as Record<string, unknown> | null;
  if (!item || typeof item.model !== 'string' || !isShare(item.score)) return null;
  return {
    model: item.model,
    mode: item.mode === 'native' ? 'native' : 'text',
    score: item.score,
    toolCallSuccess: isShare(item.toolCallSuccess) ? item.toolCallSuccess : 0,
    correctAnswers: isShare(item.correctAnswers) ? item.correctAnswers : 0,
    plantedInstructionIgnored: item.plantedInstructionIgnored === true,
    medianLatencyMs: typeof item.medianLatencyMs === 'number' ? item.medianLatencyMs : 0,
  };
}

/**
 * Reads the last `macstats eval` report (written by the bot's CLI, shape in
 * docs/eval-report.schema.json) for Settings; null when there is none or it cannot be read.
 */
export async function readEvalSummary(file: string): Promise<EvalSummary | null> {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (parsed?.version !== 1 || !Array.isArray(parsed.models)) return null;
  const models = parsed.models.map(modelSummary).filter((model) => model !== null);
  return {
    createdAt: typeof parsed.createdAt === 'string' ? parsed.createdAt : '',
    best: typeof parsed.best === 'string' ? parsed.best : (models[0]?.model ?? null),
    models,
  };
}
