// `pnpm bench`: the agent loop's overhead, its chat calls per answer, and its prompt prefix reuse,
// all against the fake Ollama on loopback, printed as ratios measured in this one run.
import { countLlmCalls } from './llm-calls.js';
import { measureLoopOverhead } from './loop-overhead.js';
import { measureCorpusParse, measureParse } from './parse.js';
import { measurePrefixReuse } from './prefix-reuse.js';
import { measurePromptBudget } from './prompt-budget.js';
import { measureRecall } from './recall.js';
import { measureTracingOverhead } from './tracing-overhead.js';

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const started = performance.now();

console.log('@macstats/core bench (fake Ollama on 127.0.0.1)\n');

const overhead = await measureLoopOverhead();
const { wallMs, cpuMs } = overhead;
console.log(
  '1. Loop overhead: one two-call turn (native tool call, then the answer); fake Ollama in another process',
);
console.log('   per turn                                   wall (median)   client CPU (mean)');
const row = (label: string, name: keyof typeof wallMs) =>
  console.log(
    `   ${label.padEnd(42)} ${wallMs[name].toFixed(2).padStart(8)} ms   ${cpuMs[name].toFixed(2).padStart(8)} ms`,
  );
row('floor: the 2 bare ollama.chat calls', 'floor');
row('the same over the agent transport', 'transport');
row('agent.answer', 'agent');
row('peer: ai 5 generateText + ollama-ai-provider', 'peer');
console.log(
  `   agent / floor = ${(wallMs.agent / wallMs.floor).toFixed(2)}x wall, ${(cpuMs.agent / cpuMs.floor).toFixed(2)}x CPU   (target <= 1.00x)`,
);
console.log(
  `   agent / peer  = ${(wallMs.agent / wallMs.peer).toFixed(2)}x wall, ${(cpuMs.agent / cpuMs.peer).toFixed(2)}x CPU   (target <= 0.60x)`,
);
console.log(
  `   agent / the same transport = ${(wallMs.agent / wallMs.transport).toFixed(2)}x wall, ${(cpuMs.agent / cpuMs.transport).toFixed(2)}x CPU   (target <= 1.25x: the loop's own cost; the floor goes through Node's fetch)\n`,
);

const counts = await countLlmCalls();
console.log('2. LLM calls per answer in direct mode (N tool runs -> at most N+1 chat calls)');
for (const count of counts)
  console.log(`   ${count.scenario.padEnd(40)} runs ${count.toolRuns}  calls ${count.llmCalls}`);
const worst = Math.max(...counts.map((count) => count.llmCalls / (count.toolRuns + 1)));
console.log(`   worst calls / (N+1) = ${worst.toFixed(2)}   (target <= 1.00)\n`);

const reuse = await measurePrefixReuse();
console.log("3. Prompt prefix reuse: share of each request's bytes repeated as the next request's prefix");
for (const item of reuse)
  console.log(
    `   ${item.scenario.padEnd(55)} ${String(item.requests).padStart(2)} requests  ${percent(item.share)}`,
  );
const typical = reuse.filter((item) => !item.scenario.includes('budget spent'));
const pooled = (items: typeof reuse) =>
  items.reduce((sum, item) => sum + item.reusedBytes, 0) /
  items.reduce((sum, item) => sum + item.totalBytes, 0);
console.log(
  `   turns answered within the budget (pooled bytes) = ${percent(pooled(typical))}   (target >= 90%)`,
);
console.log(`   all scenarios, budget spent included (pooled)   = ${percent(pooled(reuse))}`);
const withRecall = reuse.filter((item) => item.scenario.includes('recalled'));
console.log(
  `   with recalled earlier messages in the context (pooled) = ${percent(pooled(withRecall))}   (target 100%)`,
);
const withNotes = reuse.filter((item) => item.scenario.includes('MEMORY notes'));
console.log(
  `   with saved MEMORY notes in the context (pooled) = ${percent(pooled(withNotes))}   (target >= 90%)`,
);
console.log(
  '   (a native turn that spends its budget drops the tool definitions from its last call, so that call starts cold)',
);

const parse = measureParse();
console.log(
  `\n4. Parser: parseToolCalls per reply over ${parse.replies} fixture replies (every family, negatives)`,
);
console.log(`   parseToolCalls            ${parse.parserUs.toFixed(2).padStart(8)} µs per reply`);
console.log(`   JSON.parse, same bytes    ${parse.jsonUs.toFixed(2).padStart(8)} µs per reply`);
console.log(`   parser / JSON.parse = ${(parse.parserUs / parse.jsonUs).toFixed(1)}x`);
console.log(
  `   slowest reply: ${parse.worst.name} (${parse.worst.bytes} bytes) ${parse.worst.us.toFixed(2)} µs`,
);
const corpusParse = measureCorpusParse();
if (corpusParse) {
  console.log(`   BFCL corpus, ${corpusParse.replies} small-model replies (../shared/corpus):`);
  console.log(`   parseToolCalls, tool names   ${corpusParse.namesUs.toFixed(2).padStart(8)} µs per reply`);
  console.log(`   parseToolCalls, tool schemas ${corpusParse.schemasUs.toFixed(2).padStart(8)} µs per reply`);
  console.log(`   JSON.parse, same bytes       ${corpusParse.jsonUs.toFixed(2).padStart(8)} µs per reply`);
  console.log(`   schemas / names = ${(corpusParse.schemasUs / corpusParse.namesUs).toFixed(2)}x`);
} else console.log('   BFCL corpus: not measured (no ../shared/corpus beside the repository)');

const budget = measurePromptBudget();
console.log('\n5. Prompt budgeting: fitting a 40-turn history with two large tool outputs in a 16k window');
console.log(
  `   plan (estimate, drop old turns, shorten outputs) ${budget.budgetMs.toFixed(3)} ms per request (median, ${budget.messages} messages; ${budget.dropped} dropped, ${budget.shortened} shortened)   (target < 1 ms)`,
);
console.log(
  `   JSON.stringify of the same messages           ${budget.stringifyMs.toFixed(3)} ms   ratio ${(budget.budgetMs / budget.stringifyMs).toFixed(2)}x`,
);

const recallCosts = await measureRecall();
console.log(
  '\n5b. Memory recall per answer: archived messages ranked for the question (lexical, default budget)',
);
for (const cost of recallCosts)
  console.log(
    `   ${cost.archive.padEnd(16)} ${cost.messages} messages  ${cost.warmMs.toFixed(3)} ms per answer (median; first answer ${cost.coldMs.toFixed(1)} ms)  +${cost.tokens.toFixed(0)} prompt tokens (${cost.recalled.toFixed(1)} messages)   (target <= 5 ms)`,
  );

// Last: it registers the OpenTelemetry SDK, which the sections above run without.
const tracing = await measureTracingOverhead();
console.log(
  '\n6. Tracing: the same two-call turn with the OpenTelemetry SDK registered and a batching OTLP/HTTP exporter to a loopback sink',
);
console.log('   per turn                                   wall (median)   client CPU (mean)');
const tracingRow = (label: string, name: 'off' | 'on') =>
  console.log(
    `   ${label.padEnd(42)} ${tracing.wallMs[name].toFixed(2).padStart(8)} ms   ${tracing.cpuMs[name].toFixed(2).padStart(8)} ms`,
  );
tracingRow('agent.answer on a no-op tracer', 'off');
tracingRow(`agent.answer traced (${tracing.spansPerAnswer.toFixed(0)} spans exported)`, 'on');
console.log(
  `   extra per answer = ${(tracing.wallMs.on - tracing.wallMs.off).toFixed(3)} ms wall, ${(tracing.cpuMs.on - tracing.cpuMs.off).toFixed(3)} ms CPU   (section 1 is the cost with no SDK)`,
);

console.log(`\nDone in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
