/** The settings of the daily token budgets: tokens (prompt plus generated) per UTC day. */
export const DAILY_TOKEN_SETTING_KEYS = ['DAILY_TOKENS_PER_AGENT', 'DAILY_TOKENS_PER_CHANNEL'] as const;

/** The daily limits the settings ask for; undefined is no limit. */
export interface DailyTokenLimits {
  /** `DAILY_TOKENS_PER_AGENT`: what each agent (`default`, or a profile) may spend per UTC day. */
  perAgent: number | undefined;
  /** `DAILY_TOKENS_PER_CHANNEL`: what the answers in one Discord channel may spend per UTC day. */
  perChannel: number | undefined;
  /** One sentence per setting that is not a token count (that budget is then off). */
  warnings: string[];
}

function parseTokens(key: string, text: string | undefined): { value?: number; warning?: string } {
  const value = text?.trim().replace(/_/g, '');
  if (value === undefined || value === '' || value === '0' || value.toLowerCase() === 'off') return {};
  if (/^\d+$/.test(value) && Number.isSafeInteger(Number(value))) return { value: Number(value) };
  return {
    warning: `${key}="${text}" is not a number of tokens: use a whole number (200000, or 200_000), or 0 or off for no limit; this budget is off.`,
  };
}

/**
 * Reads `DAILY_TOKENS_PER_AGENT` and `DAILY_TOKENS_PER_CHANNEL`. Unset, `0` or `off`: no limit (the
 * default). A bad value is one warning, and that budget is off.
 *
 * @example
 * const limits = readDailyTokenLimits(config.get); // { perAgent: 200000, perChannel: undefined, warnings: [] }
 */
export function readDailyTokenLimits(get: (key: string) => string | undefined): DailyTokenLimits {
  const agent = parseTokens('DAILY_TOKENS_PER_AGENT', get('DAILY_TOKENS_PER_AGENT'));
  const channel = parseTokens('DAILY_TOKENS_PER_CHANNEL', get('DAILY_TOKENS_PER_CHANNEL'));
  return {
    perAgent: agent.value,
    perChannel: channel.value,
    warnings: [agent.warning, channel.warning].filter((warning): warning is string => warning !== undefined),
  };
}
