import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type FakeOllama,
  type FakeSpeechServer,
  startFakeOllama,
  startFakeOtlp,
  startFakeSpeechServer,
} from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, cleanUp, runCli, tempHome } from './helpers.js';

const FIXTURES = fileURLToPath(new URL('../../../packages/voice/test/fixtures/', import.meta.url));
const NOTE = join(FIXTURES, 'cpu-load.ogg');

let ollama: FakeOllama | undefined;
let speech: FakeSpeechServer | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  await speech?.close();
  ollama = undefined;
  speech = undefined;
});

/** The user's words in the first chat request the model received. */
function askedOfModel(fake: FakeOllama): string | undefined {
  return fake.requests[0]?.messages.filter((message) => message.role === 'user').at(-1)?.content;
}

/** Runs the CLI with `input` on its standard input (the helpers' runs have none). */
function runWithInput(args: string[], home: string, env: Record<string, string>, input: Uint8Array) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, MACSTATS_HOME: home, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  // The CLI may stop reading early (a recording over the limit): the rest of the input is refused.
  child.stdin.on('error', () => {});
  child.stdin.end(input);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('macstats ask --audio', () => {
  it('transcribes the recording and answers its words as if typed', async () => {
    speech = await startFakeSpeechServer({ transcript: 'What is the CPU load right now?' });
    ollama = await startFakeOllama({ reply: () => 'The CPU is 12% busy.' });
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', '--audio', NOTE], home, {
      OLLAMA_HOST: ollama.url,
      TRANSCRIBE_BASE_URL: speech.url,
      TRANSCRIBE_MODEL: 'Systran/faster-whisper-small',
    });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('The CPU is 12% busy.');
    expect(stderr).toContain('Heard: "What is the CPU load right now?"');
    expect(askedOfModel(ollama)).toContain('What is the CPU load right now?');
    expect(speech.transcriptions[0]).toMatchObject({
      model: 'Systran/faster-whisper-small',
      fileName: 'cpu-load.ogg',
      contentType: 'audio/ogg',
    });
  });

  it("counts the transcript's tokens in the daily budget, and refuses the recording once the budget is spent", async () => {
    const usage = { input_tokens: 50, output_tokens: 10, total_tokens: 60 };
    speech = await startFakeSpeechServer({
      replies: [
        { text: 'What is the CPU load?', usage },
        { text: 'And now?', usage },
      ],
    });
    ollama = await startFakeOllama({ replies: [{ content: 'Idle.', promptEvalCount: 10, evalCount: 5 }] });
    const home = await tempHome();
    const env = {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
      TRANSCRIBE_BASE_URL: speech.url,
      DAILY_TOKENS_PER_AGENT: '100',
    };
    const first = await runCli(['ask', '--audio', NOTE], home, env);
    expect(first.stdout.trim()).toBe('Idle.');
    // The transcript's 60 tokens and the answer's 15.
    expect(JSON.parse(await readFile(join(home, 'token-budget.json'), 'utf8')).spent).toEqual({
      'agent:default': 75,
    });
    const sentence =
      /The agent "default" has spent its daily budget of 100 tokens; it resets at 00:00 UTC, in [\d.]+ (min|h|s)\./;
    // Heard (75 of 100 spent before it), and then the answer is refused: 135 of 100.
    const second = await runCli(['ask', '--audio', NOTE], home, env);
    expect(second.stderr).toMatch(sentence);
    // Now the recording itself is refused, with the same sentence, before it is sent.
    const third = await runCli(['ask', '--audio', NOTE], home, env);
    expect(third.code).toBe(1);
    expect(third.stderr).toMatch(sentence);
    expect(third.stderr).not.toContain('Transcribing');
    expect(speech.transcriptions).toHaveLength(2);
    expect(ollama.requests.filter((request) => request.messages.length > 0)).toHaveLength(1);
  });

  it('hears real speech end to end when pocketsphinx is installed', async (context) => {
    const sentence = (await readFile(join(FIXTURES, 'free-memory.txt'), 'utf8')).trim();
    speech = await startFakeSpeechServer({ recogniseSentences: [sentence], wavOnly: true });
    if (!speech.recogniserAvailable) {
      console.log(
        'skipped: hearing real speech needs pocketsphinx (apt-get install pocketsphinx pocketsphinx-en-us)',
      );
      context.skip();
    }
    ollama = await startFakeOllama({ reply: () => '2 GB are free.' });
    const home = await tempHome();
    const { code, stdout } = await runCli(['ask', '--audio', join(FIXTURES, 'free-memory.ogg')], home, {
      OLLAMA_HOST: ollama.url,
      TRANSCRIBE_BASE_URL: speech.url,
    });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('2 GB are free.');
    expect(askedOfModel(ollama)).toContain('how much memory is free on this machine');
  });

  it('exports a span for the transcription beside the answer, with the audio seconds and model', async () => {
    speech = await startFakeSpeechServer({ transcript: 'What is the CPU load?' });
    ollama = await startFakeOllama({ reply: () => 'Low.' });
    const otlp = await startFakeOtlp();
    try {
      const home = await tempHome();
      const { code, stderr } = await runCli(['ask', '--audio', NOTE], home, {
        OLLAMA_HOST: ollama.url,
        TRANSCRIBE_BASE_URL: speech.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      });
      expect(code, stderr).toBe(0);
      const span = otlp.spans.find((found) => found.name === 'transcribe whisper-1');
      expect(span?.attributes).toMatchObject({
        'gen_ai.request.model': 'whisper-1',
        'macstats.audio.format': 'ogg-opus',
      });
      expect(Number(span?.attributes['macstats.audio.seconds'])).toBeGreaterThan(2);
      expect(otlp.spans.map((found) => found.name)).toContain('invoke_agent');
    } finally {
      await otlp.close();
    }
  });

  it('reads the recording from standard input with -', async () => {
    speech = await startFakeSpeechServer({ transcript: 'How much memory is free?' });
    ollama = await startFakeOllama({ reply: () => 'Plenty.' });
    const home = await tempHome();
    const { code, stdout } = await runWithInput(
      ['ask', '--audio', '-'],
      home,
      { OLLAMA_HOST: ollama.url, TRANSCRIBE_BASE_URL: speech.url },
      await readFile(NOTE),
    );
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('Plenty.');
    expect(askedOfModel(ollama)).toContain('How much memory is free?');
    expect(speech.transcriptions[0]?.fields.model).toBe('whisper-1');
  });

  it('stops reading standard input past 8 MiB, in one sentence, sending nothing', async () => {
    speech = await startFakeSpeechServer();
    const home = await tempHome();
    const { code, stderr } = await runWithInput(
      ['ask', '--audio', '-'],
      home,
      { TRANSCRIBE_BASE_URL: speech.url },
      new Uint8Array(9 * 1024 * 1024),
    );
    expect(code).toBe(2);
    expect(stderr).toContain('The audio is more than the 8 MiB limit.');
    expect(speech.transcriptions).toHaveLength(0);
  });

  it('says in one sentence that a transcription server is needed', async () => {
    const home = await tempHome();
    const { code, stderr } = await runCli(['ask', '--audio', NOTE], home, {
      OLLAMA_HOST: 'http://127.0.0.1:9',
    });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n').at(-1)).toBe(
      'macstats ask --audio needs a transcription server: set TRANSCRIBE_BASE_URL (and TRANSCRIBE_MODEL) to one; see docs/voice.md.',
    );
  });

  it('says the transcription server is down in one sentence, and asks the model nothing', async () => {
    speech = await startFakeSpeechServer();
    await speech.down();
    ollama = await startFakeOllama();
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', '--audio', NOTE], home, {
      OLLAMA_HOST: ollama.url,
      TRANSCRIBE_BASE_URL: speech.url,
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /The transcription server at http:\/\/127\.0\.0\.1:\d+\/… is not reachable \(ECONNREFUSED\): start it, or check its address\./,
    );
    expect(ollama.requests).toHaveLength(0);
  });

  it('refuses a file that is not audio in one sentence, sending nothing', async () => {
    speech = await startFakeSpeechServer();
    const home = await tempHome();
    const notes = join(home, 'notes.txt');
    await writeFile(notes, 'these are my notes, not a recording');
    const { code, stderr } = await runCli(['ask', '--audio', notes], home, {
      OLLAMA_HOST: 'http://127.0.0.1:9',
      TRANSCRIBE_BASE_URL: speech.url,
    });
    expect(code).toBe(1);
    expect(stderr).toContain(
      'The file is not audio in a format this can take (Ogg Opus, WAV, MP3, FLAC, WebM or M4A).',
    );
    expect(speech.transcriptions).toHaveLength(0);
  });

  it('names a file it cannot read', async () => {
    speech = await startFakeSpeechServer();
    const home = await tempHome();
    const { code, stderr } = await runCli(['ask', '--audio', 'missing.ogg'], home, {
      TRANSCRIBE_BASE_URL: speech.url,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('macstats ask --audio: missing.ogg could not be read (ENOENT).');
  });

  it('refuses a question and --audio together', async () => {
    const home = await tempHome();
    const { code, stderr } = await runCli(['ask', 'hello', '--audio', NOTE], home, {});
    expect(code).toBe(2);
    expect(stderr).toContain('macstats ask: give a question or --audio <file>, not both.');
  });
});

describe('macstats doctor and the speech servers', () => {
  it('checks transcription with a one-second clip and speech with a word', async () => {
    speech = await startFakeSpeechServer({ transcript: '' });
    const home = await tempHome();
    const { stdout } = await runCli(['doctor'], home, {
      OLLAMA_HOST: 'http://127.0.0.1:9',
      TRANSCRIBE_BASE_URL: speech.url,
      SPEAK_BASE_URL: speech.url,
    });
    const base = speech.url.replace('/v1', '/…');
    expect(stdout).toContain(`✓ Transcription at ${base} answers with whisper-1`);
    expect(stdout).toMatch(
      new RegExp(
        `✓ Speech at ${base.replace(/[.…/]/g, '\\$&')} speaks with tts-1 \\(alloy\\): 1\\.\\d s of Ogg Opus`,
      ),
    );
    expect(speech.transcriptions[0]?.contentType).toBe('audio/wav');
    expect(speech.speeches[0]).toMatchObject({ model: 'tts-1', voice: 'alloy', responseFormat: 'opus' });
  });

  it('fails the check of a transcription server that is down, in one line', async () => {
    speech = await startFakeSpeechServer();
    await speech.down();
    const home = await tempHome();
    const { code, stdout } = await runCli(['doctor'], home, {
      OLLAMA_HOST: 'http://127.0.0.1:9',
      TRANSCRIBE_BASE_URL: speech.url,
    });
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /✗ The transcription server at http:\/\/127\.0\.0\.1:\d+\/… is not reachable \(ECONNREFUSED\): start it, or check its address — fix: start that server, or check TRANSCRIBE_BASE_URL and TRANSCRIBE_MODEL/,
    );
  });
});
