import { lstat, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { NAME_PATTERN, SKILLS_DEFAULTS } from './defaults.js';
import { readFrontMatter } from './front-matter.js';
import { loadSkills, type Skill } from './load-skills.js';
import { isModelRole, MODEL_ROLES, type ModelRole } from './model-role.js';
import { readMarkdown } from './read-markdown.js';

/** One agent: a folder with `AGENT.md` (front matter, then its system prompt). */
export interface AgentProfile {
  /** The folder's name: what `--agent`, `/agent`, a schedule's `agent` and `AGENT: <id>` use. */
  id: string;
  /** A name for people. */
  name: string;
  /** What it is for; other agents read it in AGENT's list. */
  description: string;
  /** The model (`qwen3:8b`) or, when `model` names a role (`tools`), the role. */
  model: { name: string } | { role: ModelRole };
  /** Tools it may use, by name (`AGENT`, `SKILL` included); undefined: every tool. */
  tools?: string[];
  /** Skills it may load, by name; undefined: every skill. Its own `skills/` folder adds more. */
  skills?: string[];
  /** Tool runs per answer; undefined: the app's. */
  maxToolIterations?: number;
  /** Plan before acting; undefined: the app's. */
  planning?: boolean;
  /** The system prompt: `AGENT.md` after its front matter. */
  prompt: string;
  /** Skills in the agent's own `skills/` folder. */
  ownSkills: Skill[];
  /** The agent's folder, absolute. */
  folder: string;
}

/** Agents found in a folder, and one sentence per folder (or skill of one) that was skipped. */
export interface LoadedAgents {
  agents: AgentProfile[];
  problems: string[];
}

const KEYS = [
  'name',
  'description',
  'model',
  'tools',
  'skills',
  'max_tool_iterations',
  'planning',
  'metadata',
];

function names(value: unknown): string[] | undefined | null {
  if (value === undefined || value === null) return undefined;
  const list = typeof value === 'string' ? value.split(/[\s,]+/) : value;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) return null;
  return list.map((item) => item.trim()).filter((item) => item !== '');
}

/** Checks one `AGENT.md`; a sentence (without the folder's name) when it is broken. */
function parseProfile(
  id: string,
  folder: string,
  text: string,
): Omit<AgentProfile, 'ownSkills'> | { problem: string } {
  const parsed = readFrontMatter(text);
  if ('problem' in parsed) return { problem: `has an AGENT.md that ${parsed.problem}` };
  const { data, body } = parsed;
  const unknown = Object.keys(data).filter((key) => !KEYS.includes(key));
  if (unknown.length > 0)
    return { problem: `has an unknown key "${unknown[0]}" in AGENT.md (known: ${KEYS.join(', ')})` };
  if (typeof data.name !== 'string' || data.name.trim() === '')
    return { problem: 'has no name in its AGENT.md front matter' };
  if (typeof data.description !== 'string' || data.description.trim() === '')
    return { problem: 'has no description in its AGENT.md front matter' };
  const description = data.description.trim().replace(/\s+/g, ' ');
  if (description.length > SKILLS_DEFAULTS.maxDescriptionChars)
    return { problem: `has a description longer than ${SKILLS_DEFAULTS.maxDescriptionChars} characters` };
  if (typeof data.model !== 'string' || data.model.trim() === '')
    return {
      problem: `has no model in AGENT.md: name a model (qwen3:8b) or a role (${MODEL_ROLES.join(', ')})`,
    };
  const model = data.model.trim();
  const tools = names(data.tools);
  if (tools === null) return { problem: 'has tools that are not a list of tool names' };
  const skills = names(data.skills);
  if (skills === null) return { problem: 'has skills that are not a list of skill names' };
  const cap = data.max_tool_iterations;
  if (cap !== undefined && (typeof cap !== 'number' || !Number.isInteger(cap) || cap < 0 || cap > 50))
    return { problem: 'has a max_tool_iterations that is not a whole number from 0 to 50' };
  if (data.planning !== undefined && typeof data.planning !== 'boolean')
    return { problem: 'has a planning that is not true or false' };
  return {
    id,
    name: data.name.trim(),
    description,
    model: isModelRole(model) ? { role: model } : { name: model },
    ...(tools ? { tools: tools.map((tool) => tool.toUpperCase()) } : {}),
    ...(skills ? { skills } : {}),
    ...(typeof cap === 'number' ? { maxToolIterations: cap } : {}),
    ...(typeof data.planning === 'boolean' ? { planning: data.planning } : {}),
    prompt: body,
    folder,
  };
}

/**
 * Reads every agent under `folder` (`<folder>/<id>/AGENT.md`, and its own skills in
 * `<folder>/<id>/skills/`), sorted by id. A broken one (no front matter, no name, description or
 * model, an unknown key, a bad value, too long, a symbolic link) is skipped with one sentence in
 * `problems`; nothing throws for it. A folder that does not exist has no agents.
 *
 * @example
 * const { agents, problems } = await loadAgents(join(home, 'agents'));
 */
export async function loadAgents(folder: string, options: { label?: string } = {}): Promise<LoadedAgents> {
  const label = options.label ?? folder;
  let entries: string[];
  try {
    entries = (await readdir(folder)).sort();
  } catch {
    return { agents: [], problems: [] };
  }
  const agents: AgentProfile[] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    if (entry.startsWith('.')) continue;
    const path = resolve(folder, entry);
    const stats = await lstat(path).catch(() => undefined);
    const where = `The agent ${join(label, entry)}`;
    if (stats?.isSymbolicLink()) {
      problems.push(`${where} is a symbolic link, which is not followed, so it is skipped.`);
      continue;
    }
    if (!stats?.isDirectory()) continue;
    if (!NAME_PATTERN.test(entry)) {
      problems.push(
        `${where} is skipped: an agent's folder is named in lowercase letters, digits and single hyphens (at most 64).`,
      );
      continue;
    }
    const read = await readMarkdown(path, 'AGENT.md', SKILLS_DEFAULTS.maxFileChars);
    const parsed = 'problem' in read ? read : parseProfile(entry, path, read.text);
    if ('problem' in parsed) {
      problems.push(`${where} ${parsed.problem}, so it is skipped.`);
      continue;
    }
    const own = await loadSkills(join(path, 'skills'), { label: join(label, entry, 'skills') });
    problems.push(...own.problems);
    agents.push({ ...parsed, ownSkills: own.skills });
  }
  return { agents, problems };
}
