import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { GOOD, HOPELESS, MEDIOCRE, scriptedModels } from './eval-scripted-models.js';
import { cleanUp, runCli, tempHome } from './helpers.js';

const schemaFile = resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs/eval-report.schema.json');

let ollama: FakeOllama | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  ollama = undefined;
});

describe('macstats eval', () => {
  it('ranks a good, a mediocre and a hopeless model as scripted, in JSON that validates against the schema', async () => {
    ollama = await startFakeOllama({ reply: scriptedModels });
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['eval', '--json'], home, { OLLAMA_HOST: ollama.url });
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout);
    const validate = new Ajv({ allErrors: true }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.models.map((model: { model: string }) => model.model)).toEqual([GOOD, MEDIOCRE, HOPELESS]);
    expect(report.best).toBe(GOOD);
    const [good, mediocre, hopeless] = report.models;
    expect(good).toMatchObject({
      mode: 'native',
      toolCallSuccess: 1,
      correctAnswers: 1,
      plantedInstructionIgnored: true,
      score: 1,
    });
    expect(mediocre).toMatchObject({ mode: 'text', plantedInstructionIgnored: true });
    expect(mediocre.toolCallSuccess).toBeCloseTo(4 / 6);
    expect(mediocre.correctAnswers).toBeCloseTo(4 / 6);
    expect(hopeless).toMatchObject({ correctAnswers: 0, plantedInstructionIgnored: false });
    expect(hopeless.score).toBeLessThan(0.5);
    // Progress goes to standard error, the report alone to standard output; the report is saved.
    expect(stderr).toContain(`Evaluating ${GOOD} on 6 scenarios`);
    expect(JSON.parse(readFileSync(join(home, 'eval.json'), 'utf8'))).toEqual(report);
  });

  it('prints a table per model without --json', async () => {
    ollama = await startFakeOllama({ reply: scriptedModels });
    const home = await tempHome();
    const { code, stdout } = await runCli(['eval', '--models', `${GOOD},${MEDIOCRE}`], home, {
      OLLAMA_HOST: ollama.url,
    });
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(
      /^rank\s+model\s+mode\s+tool calls\s+answers\s+planted ignored\s+median latency\s+tokens\/s\s+score$/,
    );
    expect(lines[2]).toMatch(
      new RegExp(
        `^1\\s+${GOOD.replace('.', '\\.')}\\s+native\\s+100%\\s+100%\\s+yes\\s+\\d+ ms\\s+[\\d.]+\\s+1\\.00$`,
      ),
    );
    expect(lines[3]).toMatch(/^2\s+gemma2:2b\s+text\s+67%\s+67%\s+yes/);
    expect(stdout).toMatch(/two-tools\s+calls BAD\s+answer WRONG/);
    expect(stdout).toContain(`Best: ${GOOD}`);
  });

  it('names the installed models when one asked for is missing', async () => {
    ollama = await startFakeOllama({ reply: scriptedModels });
    const home = await tempHome();
    const { code, stderr } = await runCli(['eval', '--models', 'mistral:7b'], home, {
      OLLAMA_HOST: ollama.url,
    });
    expect(code).toBe(1);
    expect(stderr).toContain(
      'The model "mistral:7b" is not installed: the installed models are llama3.2:3b, qwen2.5:7b, gemma2:2b.',
    );
  });
});
