/** Program names looked for on PATH, in order. */
export declare const CHROMIUM_COMMANDS: string[];
/**
 * Finds a Chromium: `CHROMIUM_PATH` when set, then `chromium`, `chromium-browser`,
 * `google-chrome` on PATH, then Playwright's browser cache.
 */
export declare function findChromium(
  env?: NodeJS.ProcessEnv,
): { path: string; source: string } | { error: string } | undefined;
