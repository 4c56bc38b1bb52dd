const DISABLING = new Set(['0', 'false', 'no', 'off']);

/**
 * Reads an `ALLOW_LOCAL_CMD` value as the original app did: `0`, `false`, `no` and `off`, in any
 * case and with surrounding spaces, disable RUN_CMD; anything else, or no value at all, leaves
 * it enabled. An app that gets `false` leaves RUN_CMD out of the tool list, so the model never
 * hears of it.
 *
 * @example
 * const tools = isLocalCmdAllowed(config.get('ALLOW_LOCAL_CMD')) ? [createRunCmdTool()] : [];
 */
export function isLocalCmdAllowed(value: string | undefined): boolean {
  if (value === undefined) return true;
  return !DISABLING.has(value.trim().toLowerCase());
}
