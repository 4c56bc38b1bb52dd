// `pnpm bench`: how fast voice notes are handled here, each figure against a baseline measured in
// this run. 1) Ogg Opus decoding as a multiple of real time (goal ≥ 100×), alone and with the
// WAV encoding a server that reads WAV only needs; the checks of a note sent as it came (the
// default: its length from its packets, decoded only until it is heard not to be silent). 2) The latency a 10 s voice note adds over a
// typed message: `transcribe()` against a fake server that answers at once, less a bare request
// to the same server carrying a typed question's bytes (goal ≤ 50 ms per 10 s of audio). The fake
// runs in a process of its own, as a real server would.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createTranscriber, decodeOggOpus, oggOpusDeclaredSeconds, prepareClip } from '../src/index.js';

const ROUNDS = 15;
const note = new Uint8Array(readFileSync(new URL('../test/fixtures/ten-seconds.ogg', import.meta.url)));
const seconds = oggOpusDeclaredSeconds(note) as number;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function timed(work: () => Promise<unknown>, rounds = ROUNDS): Promise<number> {
  await work(); // warm: the WebAssembly module compiles once per process
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return median(times);
}

const decodeMs = await timed(() => decodeOggOpus(note));
const prepareMs = await timed(() => prepareClip({ bytes: note }, { sendAs: 'wav' }));
const checkMs = await timed(() => prepareClip({ bytes: note }));
const decode16Ms = await timed(() => decodeOggOpus(note, { sampleRate: 16_000 }));
console.log(
  `load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores (figures grow with it)`,
);
console.log(
  `voice note: ${seconds.toFixed(2)} s of Ogg Opus (${(note.length / 1024).toFixed(0)} KiB), median of ${ROUNDS}`,
);
console.log(
  `decode at 48 kHz:         ${decodeMs.toFixed(1)} ms = ${((seconds * 1000) / decodeMs).toFixed(0)}× real time (goal ≥ 100×)`,
);
console.log(
  `decode at 16 kHz:         ${decode16Ms.toFixed(1)} ms = ${((seconds * 1000) / decode16Ms).toFixed(0)}× real time`,
);
console.log(
  `decode + 16 kHz WAV:      ${prepareMs.toFixed(1)} ms = ${((seconds * 1000) / prepareMs).toFixed(0)}× real time`,
);
console.log(
  `checks, sent as it came:  ${checkMs.toFixed(1)} ms = ${((seconds * 1000) / checkMs).toFixed(0)}× real time`,
);

const child = spawn(
  process.execPath,
  [...process.execArgv, fileURLToPath(new URL('./fake-speech-process.ts', import.meta.url))],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
const fake = { url: chunk.toString().trim() };
const transcriber = createTranscriber({ hosts: [{ baseUrl: fake.url }], model: 'whisper-1' });
const question = new TextEncoder().encode('please check the disk usage of every volume');
try {
  // The baseline: what a typed message costs on the same path, one small request answered at once.
  const baselineMs = await timed(async () => {
    const form = new FormData();
    form.append('file', new Blob([question], { type: 'text/plain' }), 'question.txt');
    form.append('model', 'whisper-1');
    const response = await fetch(`${fake.url}/audio/transcriptions`, { method: 'POST', body: form });
    await response.json();
  });
  const voiceMs = await timed(() => transcriber.transcribe({ bytes: note, name: 'voice-message.ogg' }));
  const addedPer10s = ((voiceMs - baselineMs) * 10) / seconds;
  console.log(`typed message round trip: ${baselineMs.toFixed(1)} ms (baseline)`);
  console.log(
    `voice note round trip:    ${voiceMs.toFixed(1)} ms = ${(voiceMs / baselineMs).toFixed(1)}× the baseline`,
  );
  console.log(`added by the voice note:  ${addedPer10s.toFixed(1)} ms per 10 s of audio (goal ≤ 50 ms)`);
} finally {
  transcriber.close();
  child.stdin.end();
}
