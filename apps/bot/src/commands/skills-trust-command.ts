import { lstat, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import {
  compareFingerprints,
  createSkillPin,
  describeChanges,
  fingerprintSkill,
  lineDiff,
  loadSkillPins,
  loadSkills,
  NAME_PATTERN,
  type SkillChanges,
  unchanged,
} from '@macstats/skills';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { plural } from '../plural.js';
import { describeInventory, inventory } from './skill-inventory.js';
import { stageSkill } from './skill-staging.js';

/**
 * Prints each changed or added file (a text file with its length), and each removed one; a
 * changed SKILL.md line by line against the one accepted, when the pin holds it.
 */
async function printChanges(
  io: CommandIo,
  folder: string,
  changes: SkillChanges,
  accepted?: string,
): Promise<void> {
  for (const [what, files] of [
    ['changed', changes.changed],
    ['added', changes.added],
  ] as const)
    for (const file of files) {
      const bytes = await readFile(join(folder, file)).catch(() => undefined);
      const text = bytes && !bytes.includes(0) ? bytes.toString('utf8') : undefined;
      io.out(
        `  ${what}: ${file}${text === undefined ? ' (binary)' : ` (${plural(text.split('\n').length - (text.endsWith('\n') ? 1 : 0), 'line')})`}`,
      );
    }
  for (const file of changes.removed) io.out(`  removed: ${file}`);
  if (accepted === undefined || !changes.changed.includes('SKILL.md')) return;
  io.out('SKILL.md, against the one you accepted:');
  for (const line of lineDiff(accepted, await readFile(join(folder, 'SKILL.md'), 'utf8')))
    io.out(`  ${line}`);
}

/**
 * `macstats skills update [name]`: fetches each skill installed from a folder or a repository
 * again; one whose files differ is replaced and withheld (its pin is kept) until
 * `macstats skills trust <name>` accepts the change.
 */
export async function skillsUpdateCommand(config: AppConfig, io: CommandIo, name?: string): Promise<number> {
  const where = paths(config);
  const pins = await loadSkillPins(where.skillPins);
  const installed = (await loadSkills(where.skills)).skills.map((skill) => skill.name);
  const names = name ? [name] : installed.filter((entry) => pins.get(entry)?.source);
  if (name && !installed.includes(name)) {
    io.err(`macstats: there is no skill named ${name} in ${where.skills}.`);
    return EXIT.usage;
  }
  let failed = false;
  for (const skill of names) {
    const pin = pins.get(skill);
    if (!pin?.source) {
      io.err(
        `macstats: ${skill} was not installed with macstats skills add, so there is nowhere to update it from.`,
      );
      failed = true;
      continue;
    }
    const staged = await stageSkill(where.skills, pin.source);
    if ('problem' in staged) {
      io.err(`macstats: ${skill} is not updated: ${staged.problem.replace(/\.$/, '')}.`);
      failed = true;
      continue;
    }
    try {
      if (staged.name !== skill) {
        io.err(`macstats: ${skill} is not updated: its source now holds a skill named ${staged.name}.`);
        failed = true;
        continue;
      }
      const target = join(where.skills, skill);
      const changes = compareFingerprints(pin.files, await fingerprintSkill(staged.folder));
      const commit = staged.source.commit ? ` (commit ${staged.source.commit.slice(0, 12)})` : '';
      const onDisk = compareFingerprints(pin.files, await fingerprintSkill(target));
      if (unchanged(changes) && unchanged(onDisk)) {
        io.out(`${skill} is up to date${commit}.`);
        continue;
      }
      const old = `${staged.folder}.old`;
      await rename(target, old);
      await rename(staged.folder, target);
      await pins.set(skill, { ...pin, source: staged.source });
      io.out(`Updated ${skill}${commit}: ${describeChanges(changes) || 'back as it was pinned'}.`);
      for (const line of describeInventory(staged.found)) io.out(line);
      if (!unchanged(changes))
        io.out(`It is withheld until you accept the change: macstats skills trust ${skill}`);
    } finally {
      await staged.cleanup();
    }
  }
  if (names.length === 0) io.out('No skill was installed from a folder or a repository, so none is updated.');
  return failed ? EXIT.failed : EXIT.ok;
}

/**
 * `macstats skills trust <name>`: shows what changed in a withheld skill since its files were
 * accepted (files changed, added, removed; what it carries, its scripts by name), then pins its
 * files as they are now, so it is offered again. Running it is the acceptance.
 */
export async function skillsTrustCommand(config: AppConfig, io: CommandIo, name: string): Promise<number> {
  const where = paths(config);
  const folder = join(where.skills, name);
  if (!NAME_PATTERN.test(name) || !(await lstat(folder).catch(() => undefined))) {
    io.err(`macstats: there is no skill named ${name} in ${where.skills}.`);
    return EXIT.usage;
  }
  const loaded = await loadSkills(where.skills, { label: 'skills' });
  const skill = loaded.skills.find((entry) => entry.name === name);
  if (!skill) {
    const problem = loaded.problems.find((line) => line.includes(`skills/${name} `));
    io.err(`macstats: ${name} cannot be trusted: it does not load (${problem ?? 'unknown reason'}).`);
    return EXIT.config;
  }
  const pins = await loadSkillPins(where.skillPins);
  const pin = pins.get(name);
  const now = await fingerprintSkill(folder);
  const changes = compareFingerprints(pin?.files ?? {}, now);
  if (pin && unchanged(changes)) {
    io.out(`${name} is as you accepted it; nothing changed.`);
    return EXIT.ok;
  }
  io.out(`The skill ${name}: ${skill.description}`);
  io.out(pin ? `Changed since you accepted it: ${describeChanges(changes)}` : 'It was not pinned yet.');
  await printChanges(io, folder, changes, pin?.skillMd);
  const found = await inventory(folder);
  if ('problem' in found) {
    io.err(`macstats: ${name} is not trusted: ${found.problem}.`);
    return EXIT.config;
  }
  for (const line of describeInventory(found)) io.out(line);
  await pins.set(name, await createSkillPin(folder, pin?.source));
  io.out(`Trusted ${name}: its files as they are now are pinned, and it is offered again.`);
  return EXIT.ok;
}
