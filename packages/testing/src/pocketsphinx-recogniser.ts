import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A real offline recogniser: Debian's `pocketsphinx` with its English model. */
export interface PocketsphinxRecogniser {
  /** The `pocketsphinx_continuous` binary found. */
  readonly binary: string;
  /** What it hears in a 16 kHz mono 16-bit WAV file; empty when it heard nothing. */
  recognise(wav: Uint8Array): Promise<string>;
}

/** The program, looked up on `PATH`; `undefined` when it is not installed. */
export function findPocketsphinx(path = process.env.PATH ?? ''): string | undefined {
  for (const folder of path.split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, 'pocketsphinx_continuous');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

/** A sentence as the grammar spells it: lower case words, no punctuation. */
export function grammarWords(sentence: string): string {
  return sentence
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Pocketsphinx restricted to `sentences` (a JSGF grammar of them): the stock English language
 * model hears espeak-ng's voice badly, while a grammar of the sentences a test speaks makes it
 * exact, and it still hears real audio (a wrong clip gives a wrong or empty answer). `undefined`
 * when `pocketsphinx_continuous` is not installed (Debian: `pocketsphinx pocketsphinx-en-us`).
 * Every word must be in the model's dictionary.
 */
export function createPocketsphinxRecogniser(
  sentences: readonly string[],
): PocketsphinxRecogniser | undefined {
  const binary = findPocketsphinx();
  if (binary === undefined) return undefined;
  const grammar = `#JSGF V1.0;\ngrammar macstats;\npublic <sentence> = ${sentences.map(grammarWords).join(' | ')};\n`;
  return {
    binary,
    async recognise(wav) {
      const folder = await mkdtemp(join(tmpdir(), 'macstats-sphinx-'));
      try {
        await writeFile(join(folder, 'clip.wav'), wav);
        await writeFile(join(folder, 'sentences.gram'), grammar);
        const heard = await new Promise<string>((resolve, reject) => {
          execFile(
            binary,
            [
              '-infile',
              join(folder, 'clip.wav'),
              '-jsgf',
              join(folder, 'sentences.gram'),
              '-logfn',
              '/dev/null',
            ],
            { timeout: 60_000 },
            (error, stdout) => (error ? reject(error) : resolve(stdout)),
          );
        });
        return heard.replace(/\s+/g, ' ').trim();
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  };
}
