import type { ModelMessage } from '../model/chat-model.js';
import type { Logger } from '../util/logger.js';
import type { ConversationRecord, ConversationTurn, MemoryStore } from './memory-store.js';
import type { ArchivedMessage, MessageArchive, NewArchivedMessage } from './message-archive.js';
import type { Recall } from './recall/recall.js';
import { buildSummaryMessages, capSummary } from './summary-prompt.js';

/** Settings of {@link ConversationMemory}. */
export interface ConversationMemoryOptions {
  store: MemoryStore;
  keepTurns: number;
  ttlMs: number;
  summaryChars: number;
  summaryHardCapChars: number;
  now: () => Date;
  logger: Logger;
  /** Where every message is kept verbatim; folding and the TTL never delete from it. */
  archive: MessageArchive;
  /** Picks the archived messages for each answer. */
  recall: Recall;
  /** Archived messages older than this are deleted by the sweep, in milliseconds; undefined keeps them. */
  retentionMs?: number | undefined;
  /** Makes one summarisation request (no tools) and resolves its text. */
  summarise: (messages: ModelMessage[], signal: AbortSignal) => Promise<string>;
}

/** What an answer needs from memory. */
export interface MemoryContext {
  summary: string | null;
  /** A turn folded into the summary had outside content in its context. */
  summaryOutside: boolean;
  /** The sites outside content came from in the turns folded into the summary. */
  summaryOrigins?: string[];
  /** The last turns, verbatim, oldest first. */
  turns: ConversationTurn[];
  /** Earlier messages recalled from the archive for this question, oldest first. */
  recalled: ArchivedMessage[];
}

/** What {@link ConversationMemory.forget} removed. */
export interface ForgetReport {
  /** Turns kept verbatim that went. */
  turns: number;
  /** Whether a rolling summary went. */
  summary: boolean;
  /** Archived messages that went. */
  archivedMessages: number;
}

/**
 * Per-conversation memory: the last turns verbatim plus a rolling summary of older ones.
 * Summaries are made in the background, one at a time per conversation, and never delay a reply:
 * they wait while any answer runs (a local Ollama often serves one request at a time), and an
 * answer that starts aborts the summaries under way, in every conversation; they run again once
 * no answer is running. Every message is also appended to the archive, which neither the summary
 * nor the TTL touches: past the TTL a conversation starts a fresh context, its messages still
 * recalled when relevant. Store failures are logged, never thrown at the answer.
 */
export class ConversationMemory {
  private readonly cache = new Map<string, ConversationRecord>();
  private readonly loading = new Map<string, Promise<ConversationRecord>>();
  private readonly summaries = new Map<string, AbortController>();
  private readonly writes = new Map<string, Promise<void>>();
  private readonly background = new Set<Promise<unknown>>();
  /** Conversations whose summary waits for the answers under way to end. */
  private readonly deferred = new Set<string>();
  private answering = 0;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: ConversationMemoryOptions) {}

  /**
   * The summary and the last turns of a conversation, and the archived messages most relevant to
   * `question` (none without one); aborts its summary under way.
   */
  async context(id: string, question?: string): Promise<MemoryContext> {
    this.summaries.get(id)?.abort();
    // Another host may have answered in this conversation since: read it again, unless a write
    // of ours is still on its way (the cache is then newer than the store).
    if (this.options.store.shared && !this.writes.has(id)) this.cache.delete(id);
    const record = await this.load(id);
    const turns = record.turns.slice(-this.options.keepTurns);
    // The recent turns are in the prompt already: recall looks further back.
    await this.writes.get(id);
    const recalled =
      question === undefined
        ? []
        : await this.options.recall.recall(id, question, {
            now: this.options.now(),
            exclude: turns.flatMap((turn) => [turn.question, turn.answer]),
          });
    return {
      summary: record.summary,
      summaryOutside: record.summaryOutside === true,
      ...(record.summaryOrigins ? { summaryOrigins: record.summaryOrigins } : {}),
      turns,
      recalled,
    };
  }

  /**
   * Marks an answer under way until the returned function is called: summaries under way are
   * aborted and none starts meanwhile, so the answer never waits behind one.
   */
  beginAnswer(): () => void {
    this.answering++;
    for (const [id, controller] of this.summaries) {
      controller.abort();
      this.summaries.delete(id);
      this.deferred.add(id);
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.answering--;
      if (this.answering > 0) return;
      const waiting = [...this.deferred];
      this.deferred.clear();
      for (const id of waiting) this.scheduleSummary(id);
    };
  }

  /**
   * Appends a finished turn, saves it in the background and starts a summary when due. `outside`
   * marks a turn whose answer had outside content in its context; `origins` are the sites it came
   * from, so a later answer treats them as it would in the same answer.
   */
  async recordTurn(
    id: string,
    question: string,
    answer: string,
    outside = false,
    origins: readonly string[] = [],
    askedBy = 'user',
  ): Promise<void> {
    const record = await this.load(id);
    const at = this.options.now().getTime();
    const turn: ConversationTurn = { question, answer, at };
    if (outside) turn.outside = true;
    if (outside && origins.length > 0) turn.origins = [...origins];
    record.turns.push(turn);
    record.updatedAt = at;
    this.persist(id);
    // The answer carries the turn's labels; the question is the user's own words.
    const reply: NewArchivedMessage = { speaker: 'assistant', text: answer, at };
    if (outside) reply.outside = true;
    if (outside && origins.length > 0) reply.origins = [...origins];
    this.archive(id, [{ speaker: askedBy, text: question, at }, reply]);
    this.scheduleSummary(id);
  }

  /**
   * Forgets a conversation — its recent turns, its summary and every archived message — here and
   * in the stores, and resolves what went.
   */
  async forget(id: string): Promise<ForgetReport> {
    this.summaries.get(id)?.abort();
    this.deferred.delete(id);
    const cached = this.cache.get(id) ?? (await this.options.store.load(id).catch(() => undefined));
    this.cache.delete(id);
    await this.writes.get(id);
    await this.options.store.delete(id);
    const archivedMessages = await this.options.archive.clear(id);
    this.options.recall.invalidate(id);
    return { turns: cached?.turns.length ?? 0, summary: Boolean(cached?.summary), archivedMessages };
  }

  /**
   * Removes one archived message (by its `seq`), and a recent turn that holds its text, so it is
   * never in a prompt again (a summary made before keeps what it said); false when there was none.
   */
  async removeMessage(id: string, seq: number): Promise<boolean> {
    await this.writes.get(id);
    const text = (await this.options.archive.read(id, seq - 1)).find((message) => message.seq === seq)?.text;
    const removed = await this.options.archive.remove(id, seq);
    this.options.recall.invalidate(id);
    if (!removed || text === undefined) return removed;
    const record = await this.load(id);
    const kept = record.turns.filter((turn) => turn.question !== text && turn.answer !== text);
    if (kept.length < record.turns.length) {
      record.turns = kept;
      this.persist(id);
    }
    return true;
  }

  /** Appends to the archive in the background, after the conversation's earlier writes. */
  private archive(id: string, messages: NewArchivedMessage[]): void {
    const previous = this.writes.get(id) ?? Promise.resolve();
    const next = previous
      .then(() => this.options.archive.append(id, messages))
      .then(
        () => {},
        (error: unknown) => {
          this.options.logger.warn({ conversationId: id, err: error }, 'messages could not be archived');
        },
      )
      .finally(() => {
        if (this.writes.get(id) === next) this.writes.delete(id);
      });
    this.writes.set(id, next);
  }

  /**
   * Drops the rolling record (recent turns and summary) of every conversation untouched for the
   * TTL, here and in the store, and resolves how many stored records went; the archive keeps their
   * messages (with `retentionMs`, the archived messages older than it go). Without it an expired
   * record goes only when its conversation is next read.
   */
  async sweep(): Promise<number> {
    const cutoff = this.options.now().getTime() - this.options.ttlMs;
    for (const [id, record] of this.cache) {
      if (record.updatedAt < cutoff && !this.summaries.has(id) && !this.writes.has(id)) this.cache.delete(id);
    }
    const { retentionMs } = this.options;
    if (retentionMs !== undefined)
      await this.options.archive.prune(this.options.now().getTime() - retentionMs).catch((error: unknown) => {
        this.options.logger.warn(
          { err: error },
          'archived messages past their retention could not be deleted',
        );
      });
    try {
      return (await this.options.store.sweep?.(cutoff)) ?? 0;
    } catch (error) {
      this.options.logger.warn({ err: error }, 'expired conversations could not be swept');
      return 0;
    }
  }

  /** Sweeps now and then every `intervalMs`, in the background, until {@link close}. */
  startSweeping(intervalMs: number): void {
    if (this.closed || this.sweeper) return;
    const run = () => this.track(this.sweep());
    run();
    this.sweeper = setInterval(run, intervalMs);
    this.sweeper.unref();
  }

  /** Resolves when no summary or write is under way. */
  async idle(): Promise<void> {
    while (this.background.size > 0 || this.writes.size > 0) {
      await Promise.allSettled([...this.background, ...this.writes.values()]);
    }
  }

  /** Aborts summaries under way and waits for pending writes. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const controller of this.summaries.values()) controller.abort();
    await this.idle();
  }

  private async load(id: string): Promise<ConversationRecord> {
    const now = this.options.now().getTime();
    let record = this.cache.get(id);
    if (!record) {
      let pending = this.loading.get(id);
      if (!pending) {
        pending = this.options.store
          .load(id)
          .catch((error: unknown) => {
            this.options.logger.warn(
              { conversationId: id, err: error },
              'conversation memory could not be loaded',
            );
            return undefined;
          })
          .then((loaded) => loaded ?? { id, summary: null, turns: [], updatedAt: now });
        this.loading.set(id, pending);
      }
      try {
        record = await pending;
      } finally {
        this.loading.delete(id);
      }
      record = this.cache.get(id) ?? record;
      this.cache.set(id, record);
    }
    if (record.turns.length + (record.summary ? 1 : 0) > 0 && now - record.updatedAt > this.options.ttlMs) {
      this.summaries.get(id)?.abort();
      record = { id, summary: null, turns: [], updatedAt: now };
      this.cache.set(id, record);
      this.track(this.options.store.delete(id));
    }
    return record;
  }

  private persist(id: string): void {
    const previous = this.writes.get(id) ?? Promise.resolve();
    const next = previous
      .then(async () => {
        const record = this.cache.get(id);
        if (record) await this.options.store.save(structuredClone(record));
      })
      .catch((error: unknown) => {
        this.options.logger.warn(
          { conversationId: id, err: error },
          'conversation memory could not be saved',
        );
      })
      .finally(() => {
        if (this.writes.get(id) === next) this.writes.delete(id);
      });
    this.writes.set(id, next);
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch(() => {}).finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }

  private scheduleSummary(id: string): void {
    const record = this.cache.get(id);
    if (this.closed || this.summaries.has(id) || !record || record.turns.length <= this.options.keepTurns)
      return;
    if (this.answering > 0) {
      this.deferred.add(id);
      return;
    }
    const controller = new AbortController();
    this.summaries.set(id, controller);
    this.track(
      new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => this.summarise(id, controller.signal))
        .then((folded) => {
          if (this.summaries.get(id) === controller) this.summaries.delete(id);
          // Turns that arrived while this summary ran are folded in by the next one.
          if (folded) this.scheduleSummary(id);
        })
        .finally(() => {
          if (this.summaries.get(id) === controller) this.summaries.delete(id);
        }),
    );
  }

  /** Makes one summary; resolves true when it was folded into the record. */
  private async summarise(id: string, signal: AbortSignal): Promise<boolean> {
    const record = this.cache.get(id);
    if (!record || signal.aborted) return false;
    const older = record.turns.slice(0, -this.options.keepTurns);
    if (older.length === 0) return false;
    const { summaryChars, summaryHardCapChars } = this.options;
    let text: string;
    try {
      const messages = buildSummaryMessages(record.summary, older, summaryChars);
      text = capSummary(await this.options.summarise(messages, signal), summaryChars, summaryHardCapChars);
    } catch (error) {
      if (!signal.aborted)
        this.options.logger.warn(
          { conversationId: id, err: error },
          'summary failed; history left as it was',
        );
      return false;
    }
    const current = this.cache.get(id);
    // Fold in only if the turns are still the ones summarised (not forgotten or expired meanwhile).
    if (
      signal.aborted ||
      text === '' ||
      current !== record ||
      !older.every((turn, i) => current.turns[i] === turn)
    )
      return false;
    current.summary = text;
    if (older.some((turn) => turn.outside)) current.summaryOutside = true;
    const origins = new Set([
      ...(current.summaryOrigins ?? []),
      ...older.flatMap((turn) => turn.origins ?? []),
    ]);
    if (origins.size > 0) current.summaryOrigins = [...origins];
    current.turns = current.turns.slice(older.length);
    current.updatedAt = this.options.now().getTime();
    this.persist(id);
    return true;
  }
}
