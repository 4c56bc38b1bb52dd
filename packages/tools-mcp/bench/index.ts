// Warm call latency of a stdio `echo` through connectMcp, against the bare SDK client and
// against spawning the server for each call as the original app did, in the same run.
// Bounded: 500 warm calls each (in alternating rounds), 10 spawn-per-call calls.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectMcp } from '../src/index.js';

const warmCalls = 500;
const rounds = 10;
const spawnCalls = 10;
const warmUp = 50;

const require = createRequire(import.meta.url);
const manifestPath = require.resolve('@modelcontextprotocol/server-everything/package.json');
const bin = (JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: Record<string, string> }).bin;
const server = join(dirname(manifestPath), Object.values(bin)[0] as string);
const command = { command: process.execPath, args: [server, 'stdio'] };

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const ours = await connectMcp({ stdio: `${command.command}|${command.args.join('|')}` });
const bare = new Client({ name: 'bench', version: '0.0.0' });
await bare.connect(new StdioClientTransport({ ...command, stderr: 'ignore' }));

const oursCall = async () => {
  const result = await ours.callTool('echo', { message: 'ping' });
  if (result.text !== 'Echo: ping') throw new Error(`unexpected result: ${result.text}`);
};
const bareCall = () => bare.callTool({ name: 'echo', arguments: { message: 'ping' } });
const toolCall = async () => {
  const result = await ours.tool.run('echo ping', { signal: new AbortController().signal });
  if (result.text !== 'Echo: ping') throw new Error(`unexpected result: ${result.text}`);
};

for (let call = 0; call < warmUp; call++) {
  await oursCall();
  await bareCall();
  await toolCall();
}

const samples = { ours: [] as number[], bare: [] as number[], tool: [] as number[], spawn: [] as number[] };
// Alternating rounds, the order rotating each round, so drift in the machine's load and
// the cost of switching between clients fall on all three alike.
const paths: Array<[number[], () => Promise<unknown>]> = [
  [samples.bare, bareCall],
  [samples.ours, oursCall],
  [samples.tool, toolCall],
];
for (let round = 0; round < rounds; round++) {
  for (let turn = 0; turn < paths.length; turn++) {
    const [into, call] = paths[(round + turn) % paths.length] as [number[], () => Promise<unknown>];
    for (let index = 0; index < warmCalls / rounds; index++) into.push(await time(call));
  }
}
await ours.close();
await bare.close();

for (let call = 0; call < spawnCalls; call++) {
  const client = new Client({ name: 'bench', version: '0.0.0' });
  samples.spawn.push(
    await time(async () => {
      await client.connect(new StdioClientTransport({ ...command, stderr: 'ignore' }));
      await client.callTool({ name: 'echo', arguments: { message: 'ping' } });
    }),
  );
  await client.close();
}

const row = (label: string, values: number[]) =>
  `${label.padEnd(34)} ${String(values.length).padStart(5)} ${percentile(values, 50).toFixed(3).padStart(10)} ${percentile(values, 95).toFixed(3).padStart(10)}`;
console.log(`MCP stdio echo, Node ${process.version}`);
console.log(`${'path'.padEnd(34)} ${'calls'.padStart(5)} ${'p50 ms'.padStart(10)} ${'p95 ms'.padStart(10)}`);
console.log(row('bare SDK client (baseline)', samples.bare));
console.log(row('connectMcp callTool', samples.ours));
console.log(row('connectMcp MCP tool run', samples.tool));
console.log(row('spawn per call (original)', samples.spawn));
const overhead = percentile(samples.ours, 50) / percentile(samples.bare, 50);
const toolOverhead = percentile(samples.tool, 50) / percentile(samples.bare, 50);
const speedup = percentile(samples.spawn, 50) / percentile(samples.ours, 50);
console.log(
  `connectMcp p50 / bare SDK p50: ${overhead.toFixed(2)}x (target <= 1.5x) ${overhead <= 1.5 ? 'met' : 'MISSED'}`,
);
console.log(`MCP tool run p50 / bare SDK p50: ${toolOverhead.toFixed(2)}x`);
console.log(
  `spawn per call p50 / connectMcp p50: ${speedup.toFixed(0)}x (target >= 100x) ${speedup >= 100 ? 'met' : 'MISSED'}`,
);
