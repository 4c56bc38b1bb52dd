export { ALLOWED_COMMANDS, type CommandName } from './command-specs.js';
export type { RunCmdErrorCode } from './error-codes.js';
export { isLocalCmdAllowed } from './local-cmd-allowed.js';
export { RUN_CMD_DEFAULTS, type RunCmdEvent, type RunCmdOptions } from './options.js';
export { createRunCmdTool, RUN_CMD_PARAMETERS } from './run-cmd-tool.js';
