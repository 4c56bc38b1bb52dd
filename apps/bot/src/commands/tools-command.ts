import { loadSkillsAndAgents } from '@macstats/skills';
import type { AppConfig } from '../app-config.js';
import { assembleBotTools } from '../bot-tools.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { plural } from '../plural.js';

const USAGE_COLUMN = 44;

/** `macstats tools`: the tools offered right now, and each one left out with the reason. */
export async function toolsCommand(config: AppConfig, io: CommandIo): Promise<number> {
  const assembled = await assembleBotTools(config, { logger: io.logger });
  try {
    io.out('Offered:');
    for (const tool of assembled.offered('chat')) {
      // A usage too long for the column gets its description on the next line, lined up.
      if (tool.usage.length <= USAGE_COLUMN)
        io.out(`  ${tool.usage.padEnd(USAGE_COLUMN)} ${tool.description}`);
      else io.out(`  ${tool.usage}\n  ${' '.repeat(USAGE_COLUMN)} ${tool.description}`);
      const details = tool.details?.();
      if (details) for (const line of details.split('\n')) io.out(`      ${line}`);
    }
    // SKILL and AGENT join the list only when there are skills and agents to offer.
    const found = await loadSkillsAndAgents(config.home);
    if (found.skills.length > 0)
      io.out(
        `  ${'SKILL: <name> [file]'.padEnd(USAGE_COLUMN)} ${plural(found.skills.length, 'skill')}: ${found.skills.map((skill) => skill.name).join(', ')}`,
      );
    if (found.agents.length > 0)
      io.out(
        `  ${'AGENT: <id> <task>'.padEnd(USAGE_COLUMN)} agents: ${found.agents.map((agent) => agent.id).join(', ')}`,
      );
    io.out('Left out:');
    for (const { name, reason } of assembled.omitted) io.out(`  ${name}: ${reason}`);
    for (const problem of assembled.problems) io.out(`  note: ${problem}`);
    return EXIT.ok;
  } finally {
    await assembled.close();
  }
}
