// `pnpm attacks:approvals`: the containment suite with four users — one who approves each card
// once, one who approves every card, one who answers "Always" to every card, and one who answers
// "Always" to their own task's cards and denies the rest — so a remembered answer is seen to let
// no more attacks through than approving each card. ATTACKS_FILTER (a regular expression on case
// ids, `^b|^a1`) runs a subset; ATTACKS_NO_BROWSER=1 leaves out the cases that need Chromium.
import { type CaseOutcome, runContainmentSuite, type SuiteMode, type SuiteResult } from './harness.js';

const pattern = process.env.ATTACKS_FILTER ? new RegExp(process.env.ATTACKS_FILTER) : undefined;
const noBrowser = process.env.ATTACKS_NO_BROWSER === '1';
const filter = (entry: { id: string; tools: string }) =>
  (!pattern || pattern.test(entry.id)) && !(noBrowser && entry.tools === 'browser');

const users: SuiteMode['user'][] = ['attentive', 'approves-all', 'always-all', 'always-own'];
const sum = (list: CaseOutcome[], pick: (outcome: CaseOutcome) => number) =>
  list.reduce((n, o) => n + pick(o), 0);
const started = performance.now();
const results: Record<string, SuiteResult> = {};
for (const user of users) {
  const result = await runContainmentSuite({ mode: { labels: 'declared', user }, filter });
  results[user] = result;
  const benign = result.outcomes.filter((outcome) => outcome.case.kind === 'benign');
  const leaks = result.outcomes.filter(
    (outcome) => outcome.case.kind === 'attack' && outcome.achieved.length > 0,
  );
  console.log(
    `${user.padEnd(12)} attacks succeed ${result.succeeded}/${result.attacks}; benign done ${result.done}/${result.benign}; cards shown in benign tasks ${sum(benign, (o) => o.asked)}, in attacks ${sum(
      result.outcomes.filter((o) => o.case.kind === 'attack'),
      (o) => o.asked,
    )}${leaks.length ? ` (${leaks.map((o) => o.case.id).join(', ')})` : ''}`,
  );
}
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
const once = results['approves-all'] as SuiteResult;
const always = results['always-all'] as SuiteResult;
const own = results['always-own'] as SuiteResult;
const attentive = results.attentive as SuiteResult;
// "Always" to every card lets through no attack that approving every card does not; rules saved
// in the user's own work let through no attack that the attentive user stops.
const leaked = (result: SuiteResult) =>
  new Set(
    result.outcomes.filter((o) => o.case.kind === 'attack' && o.achieved.length > 0).map((o) => o.case.id),
  );
const wider = (a: SuiteResult, b: SuiteResult) => [...leaked(a)].filter((id) => !leaked(b).has(id));
const problems = [...wider(always, once), ...wider(own, attentive)];
if (problems.length > 0) console.log(`remembered answers let through more: ${problems.join(', ')}`);
process.exitCode = problems.length === 0 && own.done === own.benign ? 0 : 1;
