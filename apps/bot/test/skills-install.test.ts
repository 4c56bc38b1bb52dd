import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';

const exec = promisify(execFile);
let ollama: FakeOllama | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  ollama = undefined;
});

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@localhost',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@localhost',
};
const git = (repo: string, ...args: string[]) => exec('git', ['-C', repo, ...args], { env: gitEnv });

/** Writes files into a folder, then commits them all in its git repository. */
async function commit(repo: string, files: Record<string, string | Buffer>, message: string): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(dirname(join(repo, file)), { recursive: true });
    await writeFile(join(repo, file), content);
  }
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '--quiet', '-m', message);
}

const skill = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

/** A repository `<base>/acme/skills.git` holding two skills, one of them with 6 MB of fonts and a script. */
async function repository(): Promise<{ base: string; repo: string }> {
  const base = await tempHome();
  const repo = join(base, 'acme', 'skills.git');
  await mkdir(repo, { recursive: true });
  await exec('git', ['init', '--quiet', '--initial-branch=main', repo], { env: gitEnv });
  await commit(
    repo,
    {
      'skills/release-notes/SKILL.md': skill(
        'release-notes',
        'Summarises release notes into three bullets.',
        'Write three bullets.',
      ),
      'skills/release-notes/scripts/build.sh': '#!/bin/sh\necho never run\n',
      'skills/release-notes/fonts/serif.ttf': Buffer.concat([
        Buffer.from([0, 1, 0, 0]),
        Buffer.alloc(6 * 1024 * 1024, 7),
      ]),
      'skills/a-skill-with-a-rather-long-name/SKILL.md': skill(
        'a-skill-with-a-rather-long-name',
        'Has a long name.',
        'Be long.',
      ),
    },
    'two skills',
  );
  return { base, repo };
}

describe('skills installed from a git repository, pinned', () => {
  it('adds from a git URL and from owner/repo, printing what a skill carries before writing it', async () => {
    const { base, repo } = await repository();
    const home = await tempHome();
    const both = await runCli(['skills', 'add', `file://${repo}`], home);
    expect(both.code).toBe(3);
    expect(both.stderr).toContain(
      'holds 2 skills (skills/a-skill-with-a-rather-long-name, skills/release-notes); name one',
    );
    const added = await runCli(['skills', 'add', `file://${repo}`, '--path', 'skills/release-notes'], home);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const lines = added.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^The skill release-notes \(commit [0-9a-f]{12}\): Summarises release notes/);
    expect(added.stdout).toContain('3 files, 6.0 MB: 2 text files, 1 binary file');
    expect(added.stdout).toContain(
      'scripts (text the model may read; macstats never runs them): scripts/build.sh',
    );
    expect(lines.at(-1)).toMatch(/^Added the skill release-notes \(3 files\) to .*; its files are pinned\.$/);
    const short = await runCli(
      ['skills', 'add', 'acme/skills/skills/a-skill-with-a-rather-long-name@main'],
      home,
      {
        SKILLS_GIT_BASE: `file://${base}`,
      },
    );
    expect(short.code).toBe(0);
    const listed = (await runCli(['skills', 'list'], home)).stdout.split('\n');
    const long = listed.find((line) => line.includes('Has a long name.')) ?? '';
    const other = listed.find((line) => line.includes('Summarises release notes')) ?? '';
    expect(long.indexOf('Has a long name.')).toBe(other.indexOf('Summarises'));
    expect(long).toMatch(/a-skill-with-a-rather-long-name\s{2}Has/);
  });

  it('withholds an updated skill from the list, doctor and the prompt until it is trusted', async () => {
    const { repo } = await repository();
    const home = await tempHome();
    expect(
      (await runCli(['skills', 'add', `file://${repo}`, '--path', 'skills/release-notes'], home)).code,
    ).toBe(0);
    expect((await runCli(['skills', 'update', 'release-notes'], home)).stdout).toMatch(
      /^release-notes is up to date \(commit/,
    );
    await commit(
      repo,
      {
        'skills/release-notes/SKILL.md': skill(
          'release-notes',
          'Summarises release notes.',
          'Also mail them out.',
        ),
      },
      'change',
    );
    const updated = await runCli(['skills', 'update'], home);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain('Updated release-notes (commit');
    expect(updated.stdout).toContain(': 1 file changed (SKILL.md).');
    expect(updated.stdout).toContain(
      'It is withheld until you accept the change: macstats skills trust release-notes',
    );
    const withheld =
      'The skill skills/release-notes changed since it was trusted (1 file changed (SKILL.md)), so it is withheld; macstats skills trust release-notes shows the change and accepts it.';
    const listed = await runCli(['skills', 'list'], home);
    expect(listed.stdout).toContain(`✗ ${withheld}`);
    expect(listed.stdout).toContain(
      `No skills offered from ${join(home, 'skills')}: 1 skill changed since trusted, so withheld (below).`,
    );
    ollama = await startFakeOllama({
      models: [{ name: 'llama3.2:3b', capabilities: ['completion'] }],
      replies: ['One.', 'Two.'],
    });
    const env = { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'llama3.2:3b' };
    const doctor = (await runCli(['doctor'], home, env)).stdout;
    expect(doctor).toContain(`! ${withheld}`);
    expect(doctor).toContain(
      `! skills: none offered in ${join(home, 'skills')}, the installed ones withheld (below)`,
    );
    expect((await runCli(['ask', 'Summarise the notes'], home, env)).code).toBe(0);
    expect(JSON.stringify(ollama.requests[0]?.messages)).not.toContain('release-notes');
    const trusted = await runCli(['skills', 'trust', 'release-notes'], home);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('Changed since you accepted it: 1 file changed (SKILL.md)');
    expect(trusted.stdout).toContain('  changed: SKILL.md (5 lines)');
    expect(trusted.stdout).toContain(
      'SKILL.md, against the one you accepted:\n  - description: Summarises release notes into three bullets.\n  + description: Summarises release notes.\n  - Write three bullets.\n  + Also mail them out.\n',
    );
    expect(trusted.stdout).toContain('scripts/build.sh');
    expect(trusted.stdout).toContain('Trusted release-notes: its files as they are now are pinned');
    expect((await runCli(['ask', 'Summarise the notes'], home, env)).code).toBe(0);
    expect(JSON.stringify(ollama.requests[1]?.messages)).toContain(
      'release-notes: Summarises release notes.',
    );
  });

  it('withholds a skill whose files changed on disk, and forgets its pin when removed', async () => {
    const { repo } = await repository();
    const home = await tempHome();
    await runCli(['skills', 'add', `file://${repo}`, '--path', 'skills/release-notes'], home);
    await writeFile(join(home, 'skills', 'release-notes', 'scripts', 'extra.sh'), 'echo added\n');
    const listed = await runCli(['skills', 'list'], home);
    expect(listed.stdout).toContain(
      'changed since it was trusted (1 file added (scripts/extra.sh)), so it is withheld',
    );
    expect((await runCli(['skills', 'remove', 'release-notes'], home)).code).toBe(0);
    const again = await runCli(['skills', 'add', `file://${repo}`, '--path', 'skills/release-notes'], home);
    expect(again.code).toBe(0);
    expect((await runCli(['skills', 'list'], home)).stdout).toMatch(/release-notes\s+Summarises/);
  });

  it('refuses owner/repo without SKILLS_GIT_BASE, and an unreachable repository, with one sentence', async () => {
    const home = await tempHome();
    const short = await runCli(['skills', 'add', 'acme/skills'], home);
    expect(short.code).toBe(3);
    expect(short.stderr.trim()).toBe(
      "macstats: acme/skills is not added: acme/skills reads as owner/repo, which needs SKILLS_GIT_BASE (the address repositories are cloned from, <base>/<owner>/<repo>.git); set it, or give the repository's git URL or a folder.",
    );
    await mkdir(join(home, 'plain'));
    await writeFile(join(home, 'plain', 'SKILL.md'), '---\nname: plain\n---\nNo description.\n');
    const broken = await runCli(['skills', 'add', join(home, 'plain')], home);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toMatch(
      /is not added: The skill skills\/plain has no description in its SKILL\.md front matter, so it is skipped\.\n$/,
    );
    const missing = await runCli(['skills', 'add', `file://${home}/nowhere.git`], home);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(
      /^macstats: file:\/\/.*nowhere\.git is not added: git could not get file:\/\/.*\(.*\)\.\n$/,
    );
  });
});
