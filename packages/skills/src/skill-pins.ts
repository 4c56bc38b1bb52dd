import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFile } from '@macstats/core/internal';
import { fingerprintSkill, type SkillFingerprint } from './skill-fingerprint.js';

/** Where an installed skill came from, so `skills update` can fetch it again. */
export interface SkillSource {
  /** A folder's absolute path, or a git repository's URL. */
  url: string;
  /** The branch, tag or commit asked for, when one was. */
  ref?: string;
  /** The skill's folder inside the repository, when it is not the root. */
  path?: string;
  /** The commit installed, for a git repository. */
  commit?: string;
}

/** One skill's pin: the fingerprint of its files the user accepted, and where it came from. */
export interface SkillPin {
  files: SkillFingerprint;
  /** The `SKILL.md` accepted, so a change to it can be shown line by line (`lineDiff`). */
  skillMd?: string;
  source?: SkillSource;
}

/** The pin of a skill's folder as it is now: its files' fingerprint and its `SKILL.md`. */
export async function createSkillPin(folder: string, source?: SkillSource): Promise<SkillPin> {
  const skillMd = await readFile(join(folder, 'SKILL.md'), 'utf8').catch(() => undefined);
  return {
    files: await fingerprintSkill(folder),
    ...(skillMd !== undefined ? { skillMd } : {}),
    ...(source ? { source } : {}),
  };
}

/**
 * The skills whose files a user accepted, kept in a JSON file (`$MACSTATS_HOME/skill-pins.json`),
 * like MCP tool pins: a skill whose files differ from its pin is withheld until trusted again.
 */
export interface SkillPins {
  /** The pin of a skill, or undefined when it has none. */
  get(name: string): SkillPin | undefined;
  /** Pins a skill (replacing its pin); written at once, atomically. */
  set(name: string, pin: SkillPin): Promise<void>;
  /** Forgets a skill's pin. */
  remove(name: string): Promise<void>;
}

type PinDocument = { skills: Record<string, SkillPin> };

function isPinDocument(value: unknown): value is PinDocument {
  const skills = (value as PinDocument | null)?.skills;
  return (
    typeof skills === 'object' &&
    skills !== null &&
    Object.values(skills).every(
      (pin) =>
        typeof pin === 'object' &&
        pin !== null &&
        typeof pin.files === 'object' &&
        pin.files !== null &&
        Object.values(pin.files).every((hash) => typeof hash === 'string'),
    )
  );
}

async function readDocument(file: string): Promise<PinDocument> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!isPinDocument(parsed))
      throw new Error('it is not {"skills": {"<name>": {"files": {"<file>": "<sha256>"}}}}');
    return parsed;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { skills: {} };
    throw new Error(`${file}: the pinned skills cannot be read (${(error as Error).message}).`);
  }
}

/**
 * Skill pins kept in `file`, written atomically (a temporary file, then a rename). A missing file
 * holds no pins; an unreadable or corrupt one is an error, never silently reset, so a broken file
 * cannot make every changed skill count as new. Each write reads the file again and changes only
 * its own skill, so two processes pinning different skills keep both.
 *
 * @throws Error when the file exists but cannot be read as pins.
 */
export async function loadSkillPins(file: string): Promise<SkillPins> {
  let document = await readDocument(file);
  let writing: Promise<void> = Promise.resolve();
  const update = (change: (skills: Record<string, SkillPin>) => void): Promise<void> => {
    change(document.skills);
    writing = writing
      .catch(() => {})
      .then(async () => {
        const fresh = await readDocument(file);
        change(fresh.skills);
        document = fresh;
        await writePrivateFile(file, `${JSON.stringify(fresh, null, 2)}\n`);
      });
    return writing;
  };
  return {
    get: (name) => document.skills[name],
    set: (name, pin) =>
      update((skills) => {
        skills[name] = pin;
      }),
    remove: (name) =>
      update((skills) => {
        delete skills[name];
      }),
  };
}
