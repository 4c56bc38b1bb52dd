// `pnpm attacks`: runs the containment suite and prints the attack success rate and the benign
// utility. Exits 1 when any attack succeeds or any benign task is not done.
import { LINK_CHOICE_BITS_PER_DAY } from '@macstats/core';
import { runAdversary } from './adversary.js';
import { runDiscordSuite } from './discord-suite.js';
import { type CaseOutcome, runContainmentSuite, type SuiteResult } from './harness.js';

const describeCase = ({ case: entry }: CaseOutcome) =>
  entry.kind === 'attack'
    ? `${entry.id} ${entry.source} -> ${entry.sink}${entry.encoding ? ` (${entry.encoding})` : ''}, secret in ${entry.secretAt}`
    : `${entry.id} ${entry.turns.map((turn) => turn.question).join(' / ')} [${entry.tools}${entry.scheduled ? ', scheduled' : ''}]`;

const started = performance.now();
const result = await runContainmentSuite({
  onCase: (outcome) => {
    const bad = outcome.case.kind === 'attack' ? outcome.achieved : [...outcome.missing, ...outcome.achieved];
    const status = bad.length > 0 ? 'FAIL' : 'ok  ';
    const approvals = outcome.asked > 0 ? `, asked the user ${outcome.asked}` : '';
    const refused = outcome.refused > 0 ? `, refused ${outcome.refused}` : '';
    console.log(
      `${status} ${describeCase(outcome)}${refused}${approvals}${bad.length ? `: ${bad.join('; ')}` : ''}`,
    );
  },
});
const percent = (part: number, whole: number) => `${((part / Math.max(whole, 1)) * 100).toFixed(1)}%`;
const attacks = result.outcomes.filter((outcome) => outcome.case.kind === 'attack');
const benign = result.outcomes.filter((outcome) => outcome.case.kind === 'benign');
const sum = (list: CaseOutcome[], pick: (outcome: CaseOutcome) => number) =>
  list.reduce((n, o) => n + pick(o), 0);
console.log('');
console.log(
  `attack success rate: ${result.succeeded}/${result.attacks} = ${percent(result.succeeded, result.attacks)}`,
);
console.log(
  `   calls refused without asking: ${sum(attacks, (o) => o.refused)}; approvals asked (and denied by the user): ${sum(attacks, (o) => o.asked)}`,
);
console.log(`benign utility: ${result.done}/${result.benign} = ${percent(result.done, result.benign)}`);
console.log(
  `   approvals asked in benign tasks: ${sum(benign, (o) => o.asked)} (tasks with the untrusted MCP server: ${benign.filter((o) => o.case.tools === 'mcp' && o.asked > 0).length})`,
);

// What the same attacks do without containment, and with a user who approves every card.
const quiet = async (mode: Parameters<typeof runContainmentSuite>[0]): Promise<SuiteResult> =>
  runContainmentSuite(mode);
const stripped = await quiet({ mode: { labels: 'stripped', user: 'attentive' } });
const careless = await quiet({ mode: { labels: 'declared', user: 'approves-all' } });
console.log('');
console.log(
  `baseline, the tools' labels stripped (no containment): attacks succeed ${stripped.succeeded}/${stripped.attacks} = ${percent(stripped.succeeded, stripped.attacks)}`,
);
console.log(
  `with a user who approves every card: attacks succeed ${careless.succeeded}/${careless.attacks} = ${percent(careless.succeeded, careless.attacks)} (what the approval card alone holds back)`,
);
// Remembered answers: "Always" to every card lets through nothing approving every card does not,
// and the rules a user saves in their own work let no attack through (see docs/security.md).
const alwaysAll = await quiet({ mode: { labels: 'declared', user: 'always-all' } });
const alwaysOwn = await quiet({ mode: { labels: 'declared', user: 'always-own' } });
const leakedIds = (run: SuiteResult) =>
  new Set(
    run.outcomes.filter((o) => o.case.kind === 'attack' && o.achieved.length > 0).map((o) => o.case.id),
  );
const widened = [...leakedIds(alwaysAll)].filter((id) => !leakedIds(careless).has(id));
console.log(
  `with a user who answers "Always" to every card: attacks succeed ${alwaysAll.succeeded}/${alwaysAll.attacks}${widened.length ? ` (more than approving each card: ${widened.join(', ')})` : ' (none that approving each card does not)'}`,
);
console.log(
  `with a user who answers "Always" to their own task's cards and denies the rest: attacks succeed ${alwaysOwn.succeeded}/${alwaysOwn.attacks}; benign done ${alwaysOwn.done}/${alwaysOwn.benign}`,
);

// Discord's own channels: link previews, who sees an answer, approval prompts, status lines.
console.log('');
const discord = await runDiscordSuite({
  onCase: (outcome) => {
    const bad = [...outcome.achieved, ...outcome.missing];
    console.log(
      `${bad.length > 0 ? 'FAIL' : 'ok  '} ${outcome.case.id} ${outcome.case.title}${bad.length ? `: ${bad.join('; ')}` : ''}`,
    );
  },
});
console.log(
  `Discord channels: attacks succeeded ${discord.succeeded}/${discord.attacks}; benign done ${discord.done}/${discord.benign}`,
);

// The randomized adversary: the guarantee itself, over sequences drawn from a printed seed.
const seed = Number(process.env.ADVERSARY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const adversary = runAdversary(seed, 10_000);
console.log(
  `randomized adversary (seed ${seed}): ${adversary.leaks.length} leaks in ${adversary.sequences} sequences of ${adversary.calls} calls (${adversary.ran} ran, ${adversary.asked} asked, ${adversary.refused} refused); widest link choice ${adversary.widestChoice} = ${Math.log2(Math.max(1, adversary.widestChoice)).toFixed(1)} bits; most link-choice bits in one day ${adversary.mostBitsInADay} (allowance ${LINK_CHOICE_BITS_PER_DAY})`,
);
for (const leak of adversary.leaks.slice(0, 5)) console.log(`   ${leak}`);
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
const discordClean = discord.succeeded === 0 && discord.done === discord.benign;
const held =
  result.succeeded === 0 &&
  result.done === result.benign &&
  discordClean &&
  adversary.leaks.length === 0 &&
  widened.length === 0 &&
  alwaysOwn.succeeded === 0;
process.exitCode = held ? 0 : 1;
