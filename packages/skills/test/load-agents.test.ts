import { afterEach, describe, expect, it } from 'vitest';
import { loadAgents } from '../src/index.js';
import { agentFile, folderWith, skillFile } from './folders.js';

let folder: Awaited<ReturnType<typeof folderWith>> | undefined;
afterEach(async () => {
  await folder?.remove();
});

describe('loadAgents', () => {
  it('reads a profile: model or role, tools, skills, cap, planning, prompt and its own skills', async () => {
    folder = await folderWith({
      'research/AGENT.md': agentFile(
        {
          name: 'Research',
          description: 'Looks things up.',
          model: 'tools',
          tools: ['fetch_url', 'AGENT'],
          skills: 'release-notes, haiku',
          max_tool_iterations: 8,
          planning: true,
        },
        'You research.',
      ),
      'research/skills/cite/SKILL.md': skillFile('cite', 'Cites sources.'),
      'writer/AGENT.md': agentFile(
        { name: 'Writer', description: 'Writes.', model: 'qwen3:8b' },
        'You write.',
      ),
    });
    const { agents, problems } = await loadAgents(folder.path);
    expect(problems).toEqual([]);
    expect(agents[0]).toMatchObject({
      id: 'research',
      model: { role: 'tools' },
      tools: ['FETCH_URL', 'AGENT'],
      skills: ['release-notes', 'haiku'],
      maxToolIterations: 8,
      planning: true,
      prompt: 'You research.',
    });
    expect(agents[0]?.ownSkills.map((skill) => skill.name)).toEqual(['cite']);
    expect(agents[1]).toMatchObject({ id: 'writer', model: { name: 'qwen3:8b' } });
    expect(agents[1]?.tools).toBeUndefined();
  });

  it('skips each broken profile with one sentence and keeps the good ones', async () => {
    folder = await folderWith({
      'good/AGENT.md': agentFile({ name: 'Good', description: 'Works.', model: 'qwen3:4b' }, 'Hi.'),
      'no-front/AGENT.md': 'You are an agent.',
      'no-model/AGENT.md': agentFile({ name: 'X', description: 'No model.' }, 'Hi.'),
      'typo/AGENT.md': agentFile(
        { name: 'X', description: 'Typo.', model: 'a:1b', max_iterations: 3 },
        'Hi.',
      ),
      'bad-cap/AGENT.md': agentFile(
        { name: 'X', description: 'Cap.', model: 'a:1b', max_tool_iterations: -1 },
        '',
      ),
      'missing/notes.md': 'no AGENT.md',
    });
    const { agents, problems } = await loadAgents(folder.path, { label: 'agents' });
    expect(agents.map((agent) => agent.id)).toEqual(['good']);
    expect(problems).toEqual([
      'The agent agents/bad-cap has a max_tool_iterations that is not a whole number from 0 to 50, so it is skipped.',
      'The agent agents/missing has no AGENT.md, so it is skipped.',
      'The agent agents/no-front has an AGENT.md that has no front matter (it must start with a --- line, then YAML, then ---), so it is skipped.',
      'The agent agents/no-model has no model in AGENT.md: name a model (qwen3:8b) or a role (fast, general, tools, vision, thinking, code), so it is skipped.',
      'The agent agents/typo has an unknown key "max_iterations" in AGENT.md (known: name, description, model, tools, skills, max_tool_iterations, planning, metadata), so it is skipped.',
    ]);
  });
});
