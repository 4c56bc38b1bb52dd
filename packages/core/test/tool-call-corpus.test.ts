import { describe, expect, it } from 'vitest';
import { parseToolCalls } from '../src/index.js';
import {
  type BfclCase,
  loadBfclCases,
  loadPeerCases,
  SHARED_CORPUS_DIR,
  sameCalls,
} from './fixtures/shared-corpus.js';

const bfcl = loadBfclCases();
const peer = loadPeerCases();

/** Right answers over all, by one key, as `key: right/all (rate%)` lines. */
function rates(cases: readonly BfclCase[], right: ReadonlySet<BfclCase>, key: (item: BfclCase) => string) {
  const groups = new Map<string, [number, number]>();
  for (const item of cases) {
    const group = groups.get(key(item)) ?? [0, 0];
    group[1]++;
    if (right.has(item)) group[0]++;
    groups.set(key(item), group);
  }
  return [...groups].map(([name, [good, all]]) => ({ name, good, all, rate: good / all }));
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

describe.skipIf(!bfcl)(
  `the BFCL corpus of small models' raw replies${bfcl ? '' : ` (skipped: no ${SHARED_CORPUS_DIR})`}`,
  () => {
    const cases = bfcl ?? [];
    const right = new Set(
      cases.filter((item) => sameCalls(parseToolCalls(item.text, item.tools), item.expected)),
    );
    const byModel = rates(cases, right, (item) => item.model);
    const byCategory = rates(cases, right, (item) => item.category);
    console.log(
      [
        `BFCL corpus: ${right.size}/${cases.length} (${percent(right.size / cases.length)})`,
        ...[...byModel, ...byCategory].map(
          (group) => `  ${group.name.padEnd(42)} ${group.good}/${group.all} (${percent(group.rate)})`,
        ),
      ].join('\n'),
    );

    it('finds the right calls, typed by the tools’ schemas, in at least 97% of the replies', () => {
      const wrong = cases.filter((item) => !right.has(item)).map((item) => item.source);
      expect(right.size / cases.length, wrong.join('\n')).toBeGreaterThanOrEqual(0.97);
    });

    it('finds the right calls in at least 90% of each model’s replies', () => {
      for (const group of byModel) expect(group.rate, group.name).toBeGreaterThanOrEqual(0.9);
    });

    it('finds no call in any reply BFCL judged rightly without one', () => {
      const called = cases.filter((item) => item.expected.length === 0 && !right.has(item));
      expect(called.map((item) => item.text)).toEqual([]);
    });

    it('reads the same calls without schemas, values as written, in at least 97% of the replies', () => {
      const names = cases.filter((item) =>
        sameCalls(
          parseToolCalls(
            item.text,
            item.tools.map((tool) => tool.name),
          ),
          item.expected,
        ),
      );
      expect(names.length / cases.length).toBeGreaterThanOrEqual(0.97);
    });
  },
);

describe.skipIf(!peer)(
  `the peer parsers' test outputs${peer ? '' : ` (skipped: no ${SHARED_CORPUS_DIR})`}`,
  () => {
    const cases = peer ?? [];
    const wrong = cases.filter((item) => {
      const names = item.toolNames ?? [...new Set(item.expected.map((call) => call.name))];
      return !sameCalls(parseToolCalls(item.text, names.length > 0 ? names : undefined), item.expected);
    });
    console.log(
      `Peer corpus: ${cases.length - wrong.length}/${cases.length} (${percent(1 - wrong.length / cases.length)})`,
    );

    it('finds the calls each peer test expects in at least 98% of the cases', () => {
      const rate = 1 - wrong.length / cases.length;
      expect(rate, wrong.map((item) => `${item.family}: ${item.source}`).join('\n')).toBeGreaterThanOrEqual(
        0.98,
      );
    });

    it('finds no call where a peer test expects none', () => {
      const called = cases.filter((item) => item.expected.length === 0 && wrong.includes(item));
      expect(called.map((item) => item.text)).toEqual([]);
    });
  },
);
