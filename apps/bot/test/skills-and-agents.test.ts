import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';

let ollama: FakeOllama | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  ollama = undefined;
});

async function write(home: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(home, file)), { recursive: true });
    await writeFile(join(home, file), text);
  }
}

const skill = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
const agent = (fields: string, prompt: string) => `---\n${fields}\n---\n${prompt}\n`;
const models = [
  { name: 'llama3.2:3b', capabilities: ['completion'] },
  { name: 'small:1b', capabilities: ['completion', 'tools'] },
  { name: 'big:8b', capabilities: ['completion', 'tools'] },
];

describe('skills and agents in the bot', () => {
  it('answers as an agent with --agent: its model, its prompt, and a skill loaded when the model asks', async () => {
    ollama = await startFakeOllama({
      models,
      replies: ['SKILL: release-notes', 'Three bullets, as the skill says.'],
    });
    const home = await tempHome();
    await write(home, {
      'skills/release-notes/SKILL.md': skill(
        'release-notes',
        'Summarises release notes.',
        'Write exactly three bullets.',
      ),
      'agents/research/AGENT.md': agent(
        'name: Research\ndescription: Looks things up.\nmodel: small:1b',
        'You are the researcher.',
      ),
    });
    const env = { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'llama3.2:3b' };
    const { code, stdout } = await runCli(['ask', '--agent', 'research', 'What changed?'], home, env);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('Three bullets, as the skill says.');
    const [first, second] = ollama.requests;
    expect([first?.model, second?.model]).toEqual(['small:1b', 'small:1b']);
    const system = first?.messages[0]?.content ?? '';
    expect(system).toContain('You are the researcher.');
    expect(system).toContain('- release-notes: Summarises release notes.');
    expect(system).not.toContain('Write exactly three bullets.');
    expect(JSON.stringify(second?.messages.at(-1))).toContain('Write exactly three bullets.');
  });

  it('exits 2 with one sentence for an agent that does not exist', async () => {
    ollama = await startFakeOllama({ models });
    const home = await tempHome();
    await write(home, {
      'agents/research/AGENT.md': agent('name: R\ndescription: D.\nmodel: small:1b', 'P.'),
    });
    const { code, stderr } = await runCli(['ask', '--agent', 'poet', 'A haiku?'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
    });
    expect(code).toBe(2);
    expect(stderr).toContain('There is no agent "poet": the agents are research.');
    expect(ollama.requests).toHaveLength(0);
  });

  it.each([
    ['the model the last eval ranked best at tool calls', true, 'small:1b'],
    ['the largest model with native tools when there is no eval', false, 'big:8b'],
  ])('routes an agent of the tools role to %s', async (_what, withEval, expected) => {
    ollama = await startFakeOllama({ models, replies: ['Done.'] });
    const home = await tempHome();
    await write(home, {
      'agents/worker/AGENT.md': agent('name: W\ndescription: Works.\nmodel: tools', 'Work.'),
    });
    if (withEval)
      await write(home, {
        'eval.json': JSON.stringify({
          version: 1,
          models: [
            { model: 'big:8b', score: 0.6, toolCallSuccess: 0.5 },
            { model: 'small:1b', score: 0.9, toolCallSuccess: 1 },
          ],
        }),
      });
    const { code } = await runCli(['ask', '--agent', 'worker', 'Go'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
    });
    expect(code).toBe(0);
    expect(ollama.requests.map((request) => request.model)).toEqual([expected]);
  });

  it('skips a bad skill and a bad agent with one sentence each in doctor and the log; the rest works', async () => {
    ollama = await startFakeOllama({ models, replies: ['Fine.'] });
    const home = await tempHome();
    await write(home, {
      'skills/good/SKILL.md': skill('good', 'Works.', 'Do it.'),
      'skills/broken/SKILL.md': 'No front matter here.',
      'agents/good/AGENT.md': agent('name: G\ndescription: Good.\nmodel: small:1b', 'P.'),
      'agents/broken/AGENT.md': agent('name: B\ndescription: No model.', 'P.'),
      'schedules.json': JSON.stringify({
        schedules: [{ id: 'night', cron: '0 3 * * *', task: 'x', agent: 'broken' }],
      }),
    });
    const env = { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'llama3.2:3b' };
    const doctor = await runCli(['doctor'], home, env);
    const skipped = [
      'The skill skills/broken has a SKILL.md that has no front matter (it must start with a --- line, then YAML, then ---), so it is skipped.',
      'The agent agents/broken has no model in AGENT.md: name a model (qwen3:8b) or a role (fast, general, tools, vision, thinking, code), so it is skipped.',
    ];
    for (const sentence of skipped) expect(doctor.stdout).toContain(`! ${sentence}`);
    expect(doctor.stdout).toContain('✓ skills: good');
    expect(doctor.stdout).toContain(
      '! schedule "night" in schedules.json names the agent "broken", which is not installed: it is answered with one sentence saying so — fix: add agents/broken/AGENT.md, or name one of: good',
    );
    expect(doctor.stdout).toContain('✓ role tools → big:8b (native tool calling; the largest such)');
    const ask = await runCli(['ask', '--agent', 'good', 'Hi'], home, env);
    expect(ask.code).toBe(0);
    expect(ask.stdout.trim()).toBe('Fine.');
    const { readdir, readFile } = await import('node:fs/promises');
    const logs = await Promise.all(
      (await readdir(join(home, 'logs'))).map((file) => readFile(join(home, 'logs', file), 'utf8')),
    );
    for (const sentence of skipped) expect(logs.join('')).toContain(sentence);
  });

  it('adds, lists and removes a skill; refuses a folder that is not a valid skill', async () => {
    const home = await tempHome();
    const source = await tempHome();
    await write(source, {
      'notes/SKILL.md': skill('meeting-notes', 'Writes meeting notes.', 'Use headings.'),
      'notes/template.md': '# Meeting',
      'bad/SKILL.md': skill('Bad Name', 'Bad.', 'x'),
    });
    const added = await runCli(['skills', 'add', join(source, 'notes')], home);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Added the skill meeting-notes (2 files)');
    expect(added.stdout).toContain('  2 files, 86 bytes: 2 text files, 0 binary files');
    const listed = await runCli(['skills', 'list'], home);
    expect(listed.stdout).toMatch(/meeting-notes\s+Writes meeting notes\./);
    expect((await runCli(['tools'], home)).stdout).toMatch(/SKILL: <name> \[file\]\s+1 skill: meeting-notes/);
    const bad = await runCli(['skills', 'add', join(source, 'bad')], home);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('is not added: its SKILL.md needs a name of lowercase letters');
    const removed = await runCli(['skills', 'remove', 'meeting-notes'], home);
    expect(removed.code).toBe(0);
    expect((await runCli(['skills', 'list'], home)).stdout).toContain('No skills in');
    expect((await runCli(['skills', 'remove', 'meeting-notes'], home)).code).toBe(2);
  });
});
