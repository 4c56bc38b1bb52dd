import { execFile } from 'node:child_process';
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import type { SkillSource } from '@macstats/skills';

const run = promisify(execFile);

/** A git URL as git takes it: a scheme it speaks, `user@host:path`, or a path ending in `.git`. */
const GIT_URL = /^(?:(?:file|https?|ssh|git):\/\/|[\w.-]+@[\w.-]+:)|\.git\/?$/;
/** `owner/repo[/path][@ref]`, resolved against `SKILLS_GIT_BASE`. */
const SHORT_FORM = /^([\w.-]+)\/([\w.-]+)((?:\/[^@\s]+)?)(?:@([^\s@]+))?$/;

/** Reads what `skills add` was given: a folder, a git URL, or `owner/repo[/path][@ref]`. */
export async function parseSkillSource(
  given: string,
  options: { gitBase?: string | undefined; ref?: string | undefined; path?: string | undefined },
): Promise<SkillSource | { problem: string }> {
  const extra = {
    ...(options.ref ? { ref: options.ref } : {}),
    ...(options.path ? { path: options.path } : {}),
  };
  if (GIT_URL.test(given)) return { url: given, ...extra };
  const stats = await lstat(given).catch(() => undefined);
  if (stats?.isDirectory()) return { url: resolve(given), ...(options.path ? { path: options.path } : {}) };
  const short = SHORT_FORM.exec(given);
  if (short && !given.startsWith('.') && !given.startsWith('/')) {
    if (!options.gitBase)
      return {
        problem: `${given} reads as owner/repo, which needs SKILLS_GIT_BASE (the address repositories are cloned from, <base>/<owner>/<repo>.git); set it, or give the repository's git URL or a folder`,
      };
    const [, owner, repo, path, ref] = short;
    const url = `${options.gitBase.replace(/\/+$/, '')}/${owner}/${repo?.replace(/\.git$/, '')}.git`;
    const inside = path?.replace(/^\//, '') || options.path;
    const pinned = ref ?? options.ref;
    return { url, ...(pinned ? { ref: pinned } : {}), ...(inside ? { path: inside } : {}) };
  }
  return { problem: `${given} is neither a folder, a git URL nor owner/repo` };
}

/** True when the source is a git repository, not a folder on this machine. */
export const isGitSource = (source: SkillSource): boolean => GIT_URL.test(source.url);

/** The folders holding a SKILL.md under `root` (not `.git`), relative, at most four levels down. */
async function findSkillFolders(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries: Dirent[] = await readdir(dir, { withFileTypes: true }).catch(() => []);
    if (entries.some((entry) => entry.isFile() && entry.name === 'SKILL.md'))
      found.push(relative(root, dir).split(sep).join('/'));
    if (depth >= 4) return;
    for (const entry of entries)
      if (entry.isDirectory() && entry.name !== '.git' && entry.name !== 'node_modules')
        await walk(join(dir, entry.name), depth + 1);
  };
  await walk(root, 0);
  return found.sort();
}

/**
 * Gets a skill's folder: a folder as it is, or a git repository cloned into `scratch` with the
 * system's git (then the commit checked out). Within a repository the skill is at `path`, at the
 * root, or the only folder with a SKILL.md; several are one sentence naming them. Nothing runs:
 * git does not run a cloned repository's hooks, and submodules are not fetched.
 */
export async function fetchSkillSource(
  source: SkillSource,
  scratch: string,
): Promise<{ folder: string; commit?: string } | { problem: string }> {
  let root = source.url;
  let commit: string | undefined;
  if (isGitSource(source)) {
    root = join(scratch, 'repository');
    const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo' };
    try {
      await run('git', ['clone', '--quiet', '--no-recurse-submodules', '--', source.url, root], {
        env,
        signal: AbortSignal.timeout(300_000),
      });
      if (source.ref) await run('git', ['-C', root, 'checkout', '--quiet', '--detach', source.ref], { env });
      commit = (await run('git', ['-C', root, 'rev-parse', 'HEAD'], { env })).stdout.trim();
    } catch (error) {
      const said = String((error as { stderr?: string }).stderr ?? (error as Error).message)
        .trim()
        .split('\n')
        .at(-1);
      return { problem: `git could not get ${source.url}${source.ref ? ` at ${source.ref}` : ''} (${said})` };
    }
  }
  if (source.path) {
    const parts = source.path.split('/').filter((part) => part !== '' && part !== '.');
    if (parts.includes('..')) return { problem: `${source.path} is not a folder inside the repository` };
    return { folder: join(root, ...parts), ...(commit ? { commit } : {}) };
  }
  const folders = await findSkillFolders(root);
  if (folders.length === 1 || folders.includes(''))
    return {
      folder: join(root, folders.includes('') ? '' : (folders[0] ?? '')),
      ...(commit ? { commit } : {}),
    };
  if (folders.length === 0) return { problem: `${source.url} holds no SKILL.md` };
  return {
    problem: `${source.url} holds ${folders.length} skills (${folders.slice(0, 8).join(', ')}${folders.length > 8 ? ', …' : ''}); name one with --path <folder> or owner/repo/<folder>`,
  };
}
