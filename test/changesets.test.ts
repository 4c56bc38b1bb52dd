import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Packages a changeset may name: the published ones under packages/ and apps/ (the CLI). */
function publishedPackages(): Set<string> {
  const names = new Set<string>();
  for (const group of ['packages', 'apps']) {
    for (const folder of readdirSync(join(root, group))) {
      const manifest = JSON.parse(readFileSync(join(root, group, folder, 'package.json'), 'utf8'));
      if (!manifest.private) names.add(manifest.name);
    }
  }
  return names;
}

/** Returns the problems of one changeset file, in the shape `@changesets/parse` accepts. */
function changesetProblems(text: string, known: Set<string>): string[] {
  const match = /^---\n((?:"[^"]+": (?:patch|minor|major)\n)+)---\n\n?([\s\S]*\S[\s\S]*)$/.exec(text);
  if (!match)
    return ['does not start with a frontmatter of `"package": patch|minor|major` lines between `---` lines'];
  const problems: string[] = [];
  for (const line of match[1]!.trim().split('\n')) {
    const name = /^"([^"]+)"/.exec(line)?.[1] ?? '';
    if (!known.has(name)) problems.push(`names ${name}, which is not a published package`);
  }
  return problems;
}

describe('changesets', () => {
  it('every file in .changeset parses and names published packages', () => {
    const known = publishedPackages();
    const problems: string[] = [];
    for (const file of readdirSync(join(root, '.changeset'))) {
      if (!file.endsWith('.md') || file === 'README.md') continue;
      for (const problem of changesetProblems(readFileSync(join(root, '.changeset', file), 'utf8'), known))
        problems.push(`${file}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it('refuses a frontmatter a formatter turned into a heading', () => {
    const known = new Set(['@macstats/core']);
    expect(changesetProblems('---\n\n## "@macstats/core": minor\n\nText.\n', known)).toHaveLength(1);
    expect(changesetProblems('---\n"@macstats/core": minor\n---\n\nText.\n', known)).toEqual([]);
    expect(changesetProblems('---\n"@macstats/bot": minor\n---\n\nText.\n', known)).toEqual([
      'names @macstats/bot, which is not a published package',
    ]);
  });
});
