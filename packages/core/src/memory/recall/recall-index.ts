import type { ArchivedMessage } from '../message-archive.js';
import { hasTimeReference, isTemporalQuestion, type Period, questionPeriod } from './temporal.js';
import { tokenize, words } from './tokenize.js';

/** How {@link RecallIndex.rank} weighs what it finds. */
export interface RankingWeights {
  /** BM25 term-frequency saturation. */
  k1: number;
  /** BM25 length normalisation. */
  b: number;
  /** Share of a neighbour's score a message gets: the next line of a talk often holds the answer. */
  neighbour: number;
  /** Share of the score of a message two lines away (a question, its answer, a follow-up). */
  secondNeighbour: number;
  /** Messages this close in time (ms) count as one sitting for neighbours. */
  sittingGapMs: number;
  /** Factor for a message that places something in time, when the question asks when. */
  timeReference: number;
  /** Factor for a message said in the period the question names. */
  inPeriod: number;
  /** Factor for a message said by the person the question names. */
  namedSpeaker: number;
}

/** The weights recall uses unless told otherwise. */
export const RANKING_DEFAULTS: RankingWeights = {
  k1: 1.2,
  b: 0.75,
  neighbour: 0.5,
  secondNeighbour: 0.25,
  sittingGapMs: 6 * 60 * 60 * 1000,
  timeReference: 1.3,
  inPeriod: 1.5,
  namedSpeaker: 1.25,
};

/** One ranked message: its place in the index and its score. */
export interface RankedMessage {
  message: ArchivedMessage;
  score: number;
}

/**
 * A BM25 index of one conversation's archived messages, grown as messages arrive, with the
 * ranking recall needs on top: neighbours of strong hits, dates for questions about time, and the
 * speakers a question names. Pure: no I/O.
 */
export class RecallIndex {
  readonly messages: ArchivedMessage[] = [];
  private readonly postings = new Map<string, number[]>();
  private readonly lengths: number[] = [];
  private readonly timed: boolean[] = [];
  private readonly speakers = new Map<string, Set<string>>();
  private totalLength = 0;

  /** The highest `seq` indexed; 0 when empty. */
  get lastSeq(): number {
    return this.messages.at(-1)?.seq ?? 0;
  }

  /** Adds messages newer than those indexed (older or repeated ones are skipped). */
  add(messages: readonly ArchivedMessage[]): void {
    for (const message of messages) {
      if (message.seq <= this.lastSeq) continue;
      const index = this.messages.length;
      this.messages.push(message);
      const terms = tokenize(message.text);
      this.lengths.push(terms.length);
      this.totalLength += terms.length;
      this.timed.push(hasTimeReference(message.text));
      const counts = new Map<string, number>();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const [term, count] of counts) {
        const list = this.postings.get(term);
        if (list) list.push(index, count);
        else this.postings.set(term, [index, count]);
      }
      // A speaker is known by each word of their name: "Caroline", "Jon Snow" → jon, snow.
      for (const word of words(message.speaker)) {
        const said = this.speakers.get(word);
        if (said) said.add(message.speaker);
        else this.speakers.set(word, new Set([message.speaker]));
      }
    }
  }

  /**
   * The messages most relevant to `question`, best first, at most `limit`; only messages with
   * some lexical match (or a neighbour's) are returned.
   */
  rank(
    question: string,
    options: { now: Date; limit: number; weights?: Partial<RankingWeights> },
  ): RankedMessage[] {
    const weights = { ...RANKING_DEFAULTS, ...options.weights };
    const count = this.messages.length;
    if (count === 0) return [];
    // The people the question names: their own words are likelier the answer than others' mentions.
    const named = new Set<string>();
    const queryTerms: string[] = [];
    for (const word of words(question)) {
      const said = this.speakers.get(word);
      if (said) for (const speaker of said) named.add(speaker);
      else if (word.length > 0) queryTerms.push(word);
    }
    const scores = this.bm25(tokenize(queryTerms.join(' ')), weights);
    const final = new Float64Array(count);
    for (let index = 0; index < count; index++)
      final[index] =
        (scores[index] ?? 0) +
        weights.neighbour * this.nearest(scores, index, 1, weights) +
        weights.secondNeighbour * this.nearest(scores, index, 2, weights);
    const temporal = isTemporalQuestion(question);
    const period: Period | undefined = questionPeriod(question, options.now);
    for (let index = 0; index < count; index++) {
      let score = final[index] ?? 0;
      if (score === 0) continue;
      const message = this.messages[index] as ArchivedMessage;
      if (temporal && this.timed[index]) score *= weights.timeReference;
      if (period && message.at >= period.start && message.at < period.end) score *= weights.inPeriod;
      if (named.has(message.speaker)) score *= weights.namedSpeaker;
      final[index] = score;
    }
    return topK(final, options.limit).map((index) => ({
      message: this.messages[index] as ArchivedMessage,
      score: final[index] ?? 0,
    }));
  }

  /** Plain BM25 scores of every message for the query's terms. */
  private bm25(terms: readonly string[], weights: RankingWeights): Float64Array {
    const count = this.messages.length;
    const scores = new Float64Array(count);
    const average = this.totalLength / count || 1;
    for (const term of new Set(terms)) {
      const list = this.postings.get(term);
      if (!list) continue;
      const documents = list.length / 2;
      const idf = Math.log(1 + (count - documents + 0.5) / (documents + 0.5));
      for (let at = 0; at < list.length; at += 2) {
        const index = list[at] as number;
        const tf = list[at + 1] as number;
        const norm = weights.k1 * (1 - weights.b + (weights.b * (this.lengths[index] ?? 0)) / average);
        scores[index] = (scores[index] ?? 0) + (idf * (tf * (weights.k1 + 1))) / (tf + norm);
      }
    }
    return scores;
  }

  /** The better score of the two messages `distance` lines away in the same sitting (0 if none). */
  private nearest(scores: Float64Array, index: number, distance: number, weights: RankingWeights): number {
    const before = index - distance;
    const after = index + distance;
    return Math.max(
      before >= 0 && this.sameSitting(before, index, weights) ? (scores[before] ?? 0) : 0,
      after < scores.length && this.sameSitting(index, after, weights) ? (scores[after] ?? 0) : 0,
    );
  }

  private sameSitting(earlier: number, later: number, weights: RankingWeights): boolean {
    const a = this.messages[earlier];
    const b = this.messages[later];
    return a !== undefined && b !== undefined && Math.abs(b.at - a.at) <= weights.sittingGapMs;
  }
}

/** Indices of the `limit` highest positive scores, best first (ties: the later message first). */
function topK(scores: Float64Array, limit: number): number[] {
  const best: number[] = [];
  for (let index = 0; index < scores.length; index++) {
    const score = scores[index] ?? 0;
    if (score <= 0) continue;
    if (best.length === limit && score <= (scores[best[limit - 1] as number] ?? 0)) continue;
    let at = best.length;
    while (at > 0 && (scores[best[at - 1] as number] ?? 0) <= score) at--;
    best.splice(at, 0, index);
    if (best.length > limit) best.pop();
  }
  return best;
}
