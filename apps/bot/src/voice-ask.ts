import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { createAppTokenBudget } from '@macstats/app-config';
import type { DailyTokenBudget, Logger } from '@macstats/core';
import { checkClipSize, createVoiceClients, isVoiceError, VOICE_DEFAULTS } from '@macstats/voice';
import type { AppConfig } from './app-config.js';
import { type CommandIo, EXIT } from './command-io.js';
import { connectSharedState } from './shared-state.js';

/**
 * The daily token budget `ask` answers under (`DAILY_TOKENS_*`), on the same ledger as its
 * answers (`token-budget.json`, or the database's with `DATABASE_URL`); undefined when off.
 */
async function cliTokenBudget(
  config: AppConfig,
  logger: Logger,
): Promise<{ budget: DailyTokenBudget | undefined; close(): Promise<void> }> {
  const { perAgent, perChannel } = config.dailyTokens;
  if (perAgent === undefined && perChannel === undefined) return { budget: undefined, close: async () => {} };
  const shared = await connectSharedState(config, logger);
  const budget = createAppTokenBudget({
    home: config.home,
    limits: config.dailyTokens,
    ledger: shared.tokenLedger,
  });
  return { budget, close: () => shared.close() };
}

/**
 * Reads `--audio`'s clip: a file, or standard input for `-`. Never more than one byte over the
 * size limit, so a huge file is refused without being read whole.
 */
async function readClip(source: string, stdin: Readable): Promise<Uint8Array> {
  const limit = VOICE_DEFAULTS.maxBytes;
  if (source !== '-') {
    const file = await open(source, 'r');
    try {
      checkClipSize((await file.stat()).size);
      return new Uint8Array(await file.readFile());
    } finally {
      await file.close();
    }
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    // Stopped as soon as it passes the limit, with the limit's own sentence.
    if (size > limit) checkClipSize(size, undefined, { streamed: true });
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * `macstats ask --audio <file | ->`: transcribes the clip on the `TRANSCRIBE_*` server and returns
 * the transcript as the question (the asker's own words, as if typed), telling the asker on
 * standard error what was heard. Every failure is one sentence on standard error and an exit code.
 */
export async function transcribeAudioQuestion(
  config: AppConfig,
  io: CommandIo,
  options: { source: string; signal: AbortSignal; stdin: Readable; agent?: string | undefined },
): Promise<{ question: string } | { exit: number }> {
  const clients = createVoiceClients(config.voice, { logger: io.logger });
  let ledger: Awaited<ReturnType<typeof cliTokenBudget>> | undefined;
  const { transcriber } = clients;
  try {
    if (transcriber === undefined) {
      io.err(
        'macstats ask --audio needs a transcription server: set TRANSCRIBE_BASE_URL (and TRANSCRIBE_MODEL) to one; see docs/voice.md.',
      );
      return { exit: EXIT.usage };
    }
    let bytes: Uint8Array;
    try {
      bytes = await readClip(options.source, options.stdin);
    } catch (error) {
      if (isVoiceError(error)) io.err(error.message);
      else
        io.err(
          `macstats ask --audio: ${options.source} could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
        );
      return { exit: EXIT.usage };
    }
    // The transcript counts against the budget the answer will (the agent's), and a spent one
    // refuses it with the sentence the answer would get.
    ledger = await cliTokenBudget(config, io.logger);
    const who = { account: { agent: options.agent } };
    const refusal = await ledger.budget?.check(who);
    if (refusal) {
      io.err(refusal.message);
      return { exit: EXIT.failed };
    }
    const name = options.source === '-' ? 'audio' : basename(options.source);
    io.err(`… Transcribing ${name === 'audio' ? 'standard input' : name}`);
    const { text, tokens } = await transcriber.transcribe({ bytes, name }, { signal: options.signal });
    await ledger.budget?.count(who, tokens?.total ?? 0).catch((error: unknown) => {
      io.logger.warn({ err: error }, "the transcript's tokens could not be counted");
    });
    if (text === '') {
      io.err(
        'Nothing was heard in the recording: speak closer to the microphone, or check the transcription model.',
      );
      return { exit: EXIT.failed };
    }
    io.err(`Heard: "${text}"`);
    return { question: text };
  } catch (error) {
    if (options.signal.aborted) return { exit: EXIT.interrupted };
    if (!isVoiceError(error)) throw error;
    io.err(error.message);
    return { exit: EXIT.failed };
  } finally {
    clients.close();
    await ledger?.close();
  }
}

/**
 * The question `ask --audio` answers: the recording's transcript. Words typed as well are a usage
 * error (which would be the question?).
 */
export async function askedQuestion(
  config: AppConfig,
  io: CommandIo,
  options: {
    words: string[];
    audio: string;
    signal: AbortSignal;
    stdin: Readable;
    agent?: string | undefined;
  },
): Promise<{ question: string } | { exit: number }> {
  if (options.words.length > 0) {
    io.err('macstats ask: give a question or --audio <file>, not both.');
    return { exit: EXIT.usage };
  }
  return transcribeAudioQuestion(config, io, {
    source: options.audio,
    signal: options.signal,
    stdin: options.stdin,
    agent: options.agent,
  });
}
