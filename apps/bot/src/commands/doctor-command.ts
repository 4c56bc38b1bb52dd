import type { AppConfig } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { plural } from '../plural.js';
import { checkBrowser } from './browser-check.js';
import { checkConfiguredModels } from './configured-models-check.js';
import { checkSharedSchedules } from './database-check.js';
import {
  type Check,
  checkBrave,
  checkDiscord,
  checkModelServer,
  checkSchedules,
  checkSearxng,
} from './doctor-checks.js';
import { checkHome } from './home-check.js';
import { checkMcp } from './mcp-check.js';
import { checkModelFitness } from './model-fitness-checks.js';
import { checkSkillsAndAgents } from './skills-check.js';
import { checkSpeech, checkTranscription } from './voice-check.js';

const MARK = { ok: '✓', fail: '✗', skip: '–', warn: '!' } as const;

/** `macstats doctor`: one line per check, with the fix; exit 1 when any check failed. */
export async function doctorCommand(config: AppConfig, io: CommandIo): Promise<number> {
  for (const warning of config.warnings) io.out(`${MARK.fail} ${warning}`);
  const groups = await Promise.all([
    checkModelServer(config),
    checkModelFitness(config),
    checkConfiguredModels(config),
    checkDiscord(config),
    checkBrave(config),
    checkSearxng(config),
    checkBrowser(config),
    checkMcp(config),
    checkTranscription(config),
    checkSpeech(config),
    checkHome(config),
    checkSkillsAndAgents(config),
    // DATABASE_URL: the schedules live in the database's table, not in schedules.json.
    config.databaseUrl ? checkSharedSchedules(config, io.logger) : checkSchedules(config),
  ]);
  const checks: Check[] = groups.flat();
  for (const check of checks) {
    // A sentence that ends in a full stop loses it before " — fix:", never ". — fix:".
    const text = check.fix ? check.text.replace(/\.$/, '') : check.text;
    io.out(`${MARK[check.status]} ${text}${check.fix ? ` — fix: ${check.fix}` : ''}`);
  }
  const failed = checks.filter((check) => check.status === 'fail').length + config.warnings.length;
  io.out(failed === 0 ? 'All checks passed.' : `${plural(failed, 'check')} failed.`);
  return failed === 0 ? EXIT.ok : EXIT.failed;
}
