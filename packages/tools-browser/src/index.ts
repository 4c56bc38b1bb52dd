export {
  BROWSER_PARAMETERS,
  type BrowserTool,
  type BrowserToolOptions,
  createBrowserTool,
} from './browser-tool.js';
export { BROWSER_DEFAULTS } from './defaults.js';
export type { BrowserErrorCode } from './error-codes.js';
export { CHROMIUM_COMMANDS, DEFAULT_BROWSER_FOLDERS, findChromium } from './find-chromium.js';
export type { BrowserAction } from './parse-command.js';
export { findPlaywright } from './playwright-driver.js';
export { type AriaNode, type RenderOptions, renderSnapshot } from './render-snapshot.js';
