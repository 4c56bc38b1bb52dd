/** The memory settings: how long archived messages are kept and how much is recalled per answer. */
export interface MemorySettings {
  /** `MEMORY_RETENTION_DAYS`: archived messages older than this many days are deleted. Unset: kept. */
  retentionDays: number | undefined;
  /** `MEMORY_RECALL_MESSAGES`: earlier messages recalled per answer (0 turns recall off). Default 10. */
  recallMessages: number | undefined;
  /** `MEMORY_RECALL_CHARS`: characters of recalled text per answer. Default 2000. */
  recallChars: number | undefined;
}

/** The settings' names, as `.config.env` and the environment spell them. */
export const MEMORY_SETTING_KEYS = [
  'MEMORY_RETENTION_DAYS',
  'MEMORY_RECALL_MESSAGES',
  'MEMORY_RECALL_CHARS',
] as const;

/** Reads the memory settings; a value that is not a whole number of 0 or more is one warning and the default. */
export function readMemorySettings(
  get: (key: string) => string | undefined,
  warnings: string[],
): MemorySettings {
  const whole = (key: (typeof MEMORY_SETTING_KEYS)[number], least: number) => {
    const text = get(key);
    if (text === undefined) return undefined;
    const value = Number(text);
    if (Number.isInteger(value) && value >= least) return value;
    warnings.push(`${key} "${text}" is not a whole number of ${least} or more; using the default.`);
    return undefined;
  };
  return {
    retentionDays: whole('MEMORY_RETENTION_DAYS', 1),
    recallMessages: whole('MEMORY_RECALL_MESSAGES', 0),
    recallChars: whole('MEMORY_RECALL_CHARS', 0),
  };
}

/** The agent's `memory` options these settings give (retention and the recall budget). */
export function memoryOptionsOf(settings: MemorySettings): {
  retentionMs?: number;
  recall?: { maxMessages?: number; maxChars?: number };
} {
  const recall = {
    ...(settings.recallMessages === undefined ? {} : { maxMessages: settings.recallMessages }),
    ...(settings.recallChars === undefined ? {} : { maxChars: settings.recallChars }),
  };
  return {
    ...(settings.retentionDays === undefined ? {} : { retentionMs: settings.retentionDays * 86_400_000 }),
    ...(Object.keys(recall).length > 0 ? { recall } : {}),
  };
}
