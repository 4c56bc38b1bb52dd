import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../src/index.js';
import {
  type FamilyCase,
  familyTools,
  loadFamilyCases,
  SHARED_CORPUS_DIR,
  sameFamilyCalls,
} from './fixtures/shared-corpus.js';

const cases = loadFamilyCases();

/**
 * Upstream tests that expect no call where this parser finds one, each class judged on its merits
 * (the issue's rule: a call cut off mid-arguments must not run; a lenient read is fine where the
 * model's intent is whole). Named by the upstream test, never by its text. The other classes of
 * "no call" are followed: a call cut off before its end (Poolside, GLM-4.5, MiniCPM5, MiniMax M3)
 * is not read, and a parameter without a name or given twice (MiniCPM5) makes no call.
 */
const JUDGED: ReadonlyArray<{ test: string; reason: string; refused?: true }> = [
  {
    test: 'test_minicpm5_detector.py#test_case_sensitive_param_name_invalid_v3',
    reason:
      'a parameter the schema does not have (its case differs): the call comes back refused, with a sentence naming the parameters, which the agent gives the model instead of running it.',
    refused: true,
  },
  {
    test: 'test_deepseekv4_tool_parser.py#test_function_calls_block_is_not_accepted',
    reason:
      'DeepSeek V4 wraps invokes in tool_calls, V3.2 in function_calls; the parser is not told the model, and a whole V3.2 call is a call.',
  },
  {
    test: 'test_minimax_tool_parser.py#test_extract_tool_calls_multiline_json_not_supported',
    reason:
      "whole JSON spread over lines in MiniMax M1's <tool_calls>: upstream reads one call a line and says so in the test's name; the intent is whole.",
  },
  {
    test: 'TestGigaChat3Detector.test_detect_and_parse_arguments_not_dict',
    reason:
      'a whole call whose arguments are a string: the parser returns the text as the argument, and the agent answers "Not run: …" for a tool that takes an object, so the model hears why.',
  },
  {
    test: 'TestMinimaxM3NoneNullRegression.test_streaming_and_non_streaming_agree_for_string',
    reason:
      "not a judgement on the text: the test only compares streamed and whole parses, so the recorder's empty answer passed; the same file asserts these calls elsewhere.",
  },
  {
    test: 'TestMinimaxM3Streaming.test_streaming_matches_non_streaming',
    reason:
      "not a judgement on the text: the test only compares streamed and whole parses, so the recorder's empty answer passed.",
  },
];

const judgedBy = (item: FamilyCase) => JUDGED.find((judged) => item.source.endsWith(judged.test));
const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** Cases agreeing with upstream, and with the judged ones counted as ours, per family. */
function byFamily(
  items: readonly FamilyCase[],
  agree: ReadonlySet<FamilyCase>,
  ours: ReadonlySet<FamilyCase>,
) {
  const groups = new Map<string, { agree: number; ours: number; all: number }>();
  for (const item of items) {
    const group = groups.get(item.family) ?? { agree: 0, ours: 0, all: 0 };
    group.all++;
    if (agree.has(item)) group.agree++;
    if (ours.has(item)) group.ours++;
    groups.set(item.family, group);
  }
  return [...groups]
    .map(([name, group]) => ({ name, ...group, rate: group.ours / group.all }))
    .sort((a, b) => b.all - a.all || a.name.localeCompare(b.name));
}

describe.skipIf(!cases)(
  `vLLM's and SGLang's tool-parser tests, family by family${cases ? '' : ` (skipped: no ${SHARED_CORPUS_DIR})`}`,
  () => {
    const items = cases ?? [];
    const parsed = new Map(items.map((item) => [item, parseToolCalls(item.text, familyTools(item))]));
    const calls = (item: FamilyCase) => parsed.get(item) ?? [];
    const agree = new Set(items.filter((item) => sameFamilyCalls(calls(item), item.expected)));
    const judged = items.filter((item) => !agree.has(item) && judgedBy(item));
    const ours = new Set([...agree, ...judged]);
    const families = byFamily(items, agree, ours);
    console.log(
      [
        `Family corpus: ${agree.size}/${items.length} agree with upstream (${percent(agree.size / items.length)}); ` +
          `${ours.size}/${items.length} (${percent(ours.size / items.length)}) with ${judged.length} judged otherwise`,
        ...families.map(
          (group) =>
            `  ${group.name.padEnd(18)} ${`${group.agree}/${group.all}`.padStart(6)} (${percent(group.agree / group.all)})` +
            (group.ours > group.agree ? `  ${group.ours}/${group.all} with judged` : ''),
        ),
      ].join('\n'),
    );
    const wrong = (family?: string) =>
      items
        .filter((item) => !ours.has(item) && (family === undefined || item.family === family))
        .map((item) => item.source)
        .join('\n');

    it('finds the calls each upstream test asserts, or none, in at least 97% of the cases, judged cases counted', () => {
      expect(ours.size / items.length, wrong()).toBeGreaterThanOrEqual(0.97);
    });

    // A floor for upstream's own answers: seven of the judged cases are two equality tests whose
    // "no call" the extraction read from a comparison of two recorded parses, not from the text.
    it('agrees with upstream itself in at least 96% of the cases', () => {
      expect(agree.size / items.length).toBeGreaterThanOrEqual(0.96);
    });

    it('finds them in at least 90% of the cases of every family with five or more, judged cases counted', () => {
      for (const group of families.filter((family) => family.all >= 5))
        expect(group.rate, `${group.name}\n${wrong(group.name)}`).toBeGreaterThanOrEqual(0.9);
    });

    it('makes a call where upstream makes none only in the classes judged above, and then a whole one', () => {
      const called = items.filter((item) => item.expected.length === 0 && !agree.has(item));
      expect(called.filter((item) => !judgedBy(item)).map((item) => item.source)).toEqual([]);
      for (const item of called) {
        expect(calls(item).length, item.source).toBeGreaterThan(0);
        if (judgedBy(item)?.refused)
          expect(
            calls(item).every((call) => call.problem !== undefined),
            item.source,
          ).toBe(true);
      }
    });
  },
);
