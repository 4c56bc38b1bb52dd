import { createProcSource } from './proc-source.js';
import type { MetricsSource } from './source-types.js';
import { createSystemInformationSource } from './system-information-source.js';

/** The cheapest source for this platform: `/proc` on Linux, systeminformation elsewhere. */
export function createDefaultSource(): MetricsSource {
  return process.platform === 'linux' ? createProcSource() : createSystemInformationSource();
}
