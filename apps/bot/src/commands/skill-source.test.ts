import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseSkillSource } from './skill-source.js';

describe('parseSkillSource', () => {
  it('resolves owner/repo/path@ref against SKILLS_GIT_BASE', async () => {
    expect(await parseSkillSource('acme/skills/skills/pdf@v1.2', { gitBase: 'file:///srv/git/' })).toEqual({
      url: 'file:///srv/git/acme/skills.git',
      ref: 'v1.2',
      path: 'skills/pdf',
    });
  });

  it('takes a git URL with --ref and --path as they are', async () => {
    expect(await parseSkillSource('file:///srv/git/x.git', { ref: 'main', path: 'skills/a' })).toEqual({
      url: 'file:///srv/git/x.git',
      ref: 'main',
      path: 'skills/a',
    });
  });

  it('takes a folder on this machine, with --path', async () => {
    expect(await parseSkillSource(tmpdir(), { path: 'pdf' })).toEqual({ url: tmpdir(), path: 'pdf' });
  });

  it('says in one sentence what it cannot read', async () => {
    expect(await parseSkillSource('no such thing', {})).toEqual({
      problem: 'no such thing is neither a folder, a git URL nor owner/repo',
    });
  });
});
