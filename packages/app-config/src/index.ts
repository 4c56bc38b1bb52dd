export type { ConfigSource, LoadConfigOptions, LoadedConfig } from './load-config.js';
export { CONFIG_FILE_NAME, CONFIG_KEYS, loadConfig } from './load-config.js';
export { isSecretKey, maskConfigValue, maskSecret } from './mask-config-value.js';
export { MODEL_SETTING_NAMES } from './model-setting-names.js';
export type { ParsedEnvFile } from './parse-env-file.js';
export { parseEnvFile } from './parse-env-file.js';
export { parseSchedulerLease, SCHEDULER_LEASE_BOUNDS } from './scheduler-lease.js';
export { updateConfigEnv } from './update-config-env.js';
