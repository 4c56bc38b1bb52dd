import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSkillPins, loadSkillsAndAgents } from '../src/index.js';
import { folderWith, skillFile } from './folders.js';

let folder: Awaited<ReturnType<typeof folderWith>> | undefined;
afterEach(async () => {
  await folder?.remove();
});

describe('skill pins', () => {
  it('pins a skill seen for the first time, and withholds it once a file of it changes', async () => {
    folder = await folderWith({
      'skills/notes/SKILL.md': skillFile('notes', 'Keeps notes.'),
      'skills/notes/fonts/a.ttf': '\u0000font',
    });
    const first = await loadSkillsAndAgents(folder.path);
    expect(first.skills.map((skill) => skill.name)).toEqual(['notes']);
    const pins = JSON.parse(await readFile(join(folder.path, 'skill-pins.json'), 'utf8'));
    expect(Object.keys(pins.skills.notes.files)).toEqual(['SKILL.md', 'fonts/a.ttf']);
    await writeFile(join(folder.path, 'skills/notes/fonts/a.ttf'), '\u0000other font');
    const second = await loadSkillsAndAgents(folder.path);
    expect(second.skills).toEqual([]);
    expect(second.withheld.map((skill) => skill.name)).toEqual(['notes']);
    expect(second.problems).toEqual([
      'The skill skills/notes changed since it was trusted (1 file changed (fonts/a.ttf)), so it is withheld; macstats skills trust notes shows the change and accepts it.',
    ]);
  });

  it('offers no skill while the pins file cannot be read, and says so in one sentence', async () => {
    folder = await folderWith({
      'skills/notes/SKILL.md': skillFile('notes', 'Keeps notes.'),
      'skill-pins.json': '{ broken',
    });
    const found = await loadSkillsAndAgents(folder.path);
    expect(found.skills).toEqual([]);
    expect(found.problems).toHaveLength(1);
    expect(found.problems[0]).toMatch(
      /skill-pins\.json: the pinned skills cannot be read \(.*\); no skill is offered until it is fixed or deleted/,
    );
  });

  it('keeps the pins another process wrote between its read and its write', async () => {
    folder = await folderWith({});
    const file = join(folder.path, 'skill-pins.json');
    const one = await loadSkillPins(file);
    const two = await loadSkillPins(file);
    await one.set('a', { files: { 'SKILL.md': 'a'.repeat(64) } });
    await two.set('b', { files: { 'SKILL.md': 'b'.repeat(64) } });
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')).skills).sort()).toEqual(['a', 'b']);
  });

  it('offers every skill unpinned when told to keep no pins', async () => {
    folder = await folderWith({
      'skills/notes/SKILL.md': skillFile('notes', 'Keeps notes.'),
      'skill-pins.json': '{ broken',
    });
    expect((await loadSkillsAndAgents(folder.path, { pinsFile: false })).skills).toHaveLength(1);
  });
});
