import { type FSWatcher, watch } from 'node:fs';
import { hostname } from 'node:os';
import type { ApprovalAnswer } from '../types.js';
import type { Logger } from '../util/logger.js';
import {
  type CardOwner,
  claimAnswer,
  isCardId,
  openApprovalFolders,
  pruneAnswers,
  readAnswer,
  readCard,
  readCards,
  removeCard,
  writeCard,
} from './pending-approval-files.js';
import {
  type ApprovalOutcome,
  allowedAnswer,
  newApprovalId,
  type PendingApproval,
  type PendingApprovalEvent,
  type PendingApprovals,
  pendingApprovalOf,
} from './pending-approvals.js';

/** The folder of the shared pending approvals in the data folder. */
export const PENDING_APPROVALS_DIR = 'approvals';

/** Options of {@link createSharedPendingApprovals}. */
export interface SharedPendingApprovalsOptions {
  /** The folder the cards and answers live in: `<data folder>/approvals`. */
  dir: string;
  now?: () => Date;
  /** Where a folder that cannot be read is reported. */
  logger?: Logger | undefined;
  /**
   * How often the folder is read again although no change was reported (a change notice can be
   * missed, on some file systems always is), in milliseconds. Default 2000.
   */
  recheckMs?: number;
}

/** Pending approvals shared through a folder; `close` stops watching it. */
export interface SharedPendingApprovals extends PendingApprovals {
  readonly dir: string;
  close(): void;
}

/** Answers are kept a day: a click on a card answered earlier is told so. */
const ANSWERS_KEPT_MS = 24 * 60 * 60 * 1000;
const KEPT_OUTCOMES = 200;

/**
 * The pending approvals of every process on one data folder (`macstats start`, the dashboard, a
 * CLI run): each process's cards are files in `dir`, every process lists them all, and any may
 * answer any. The first answer anywhere is the only one (stored by a hard link, which exactly one
 * process can make); the process that asked resolves its waiting call when it sees the answer,
 * and every process tells its subscribers the card ended (a Discord card is edited, a page's
 * card closes). Changes are noticed by `fs.watch`, and the folder, re-read on each notice and
 * on every `list`, is the truth. A card past its expiry, or whose process on this host is gone,
 * is closed as expired by whoever sees it first.
 *
 * @example
 * const pending = createSharedPendingApprovals({ dir: join(home, PENDING_APPROVALS_DIR) });
 * pending.answer('a1xyz', 'once', 'the terminal'); // from another process than the one that asked
 */
export function createSharedPendingApprovals(options: SharedPendingApprovalsOptions): SharedPendingApprovals {
  const now = options.now ?? (() => new Date());
  const folders = openApprovalFolders(options.dir);
  const self: CardOwner = { pid: process.pid, host: hostname() };
  const own = new Map<string, { approval: PendingApproval; resolve: (answer: ApprovalAnswer) => void }>();
  let seen = new Map<string, PendingApproval>();
  const closed = new Map<string, ApprovalOutcome>();
  const listeners = new Set<(event: PendingApprovalEvent) => void>();
  let lastPrune = 0;

  const emit = (event: PendingApprovalEvent) => {
    for (const listener of listeners) listener(event);
  };
  const remember = (id: string, outcome: ApprovalOutcome) => {
    closed.set(id, outcome);
    if (closed.size > KEPT_OUTCOMES) closed.delete(closed.keys().next().value as string);
  };
  /** Resolves one of this process's cards once an answer to it is stored. */
  function settle(id: string): void {
    const entry = own.get(id);
    const stored = entry && readAnswer(folders, id);
    if (!entry || !stored) return;
    own.delete(id);
    seen.delete(id);
    removeCard(folders, id);
    remember(id, stored.outcome);
    entry.resolve(stored.outcome === 'expired' ? 'deny' : stored.outcome);
    emit({ type: 'answered', approval: entry.approval, outcome: stored.outcome, by: stored.by });
  }
  function refresh(): void {
    for (const id of [...own.keys()]) settle(id);
    const current = new Map<string, PendingApproval>();
    for (const { approval, owner } of readCards(folders)) {
      if (own.has(approval.id)) {
        current.set(approval.id, approval);
        continue;
      }
      if (readAnswer(folders, approval.id)) continue; // answered; its process removes the file
      if (abandoned(approval, owner)) {
        claimAnswer(folders, approval.id, { outcome: 'expired', by: 'cleanup', at: now().toISOString() });
        removeCard(folders, approval.id);
        continue;
      }
      current.set(approval.id, approval);
    }
    for (const [id, approval] of current)
      if (!seen.has(id) && !own.has(id)) emit({ type: 'opened', approval });
    for (const [id, approval] of seen) {
      if (current.has(id) || own.has(id)) continue;
      const stored = readAnswer(folders, id);
      const outcome = stored?.outcome ?? 'expired';
      remember(id, outcome);
      emit({ type: 'answered', approval, outcome, by: stored?.by });
    }
    seen = current;
    if (now().getTime() - lastPrune > 60_000) {
      lastPrune = now().getTime();
      pruneAnswers(folders, ANSWERS_KEPT_MS, lastPrune);
    }
  }
  /** Past its expiry, or asked by a process of this host that is gone: nobody will close it. */
  function abandoned(approval: PendingApproval, owner: CardOwner): boolean {
    if (approval.expiresAt.getTime() < now().getTime()) return true;
    return owner.host === self.host && owner.pid !== self.pid && !processAlive(owner.pid);
  }
  const safeRefresh = () => {
    try {
      refresh();
    } catch (error) {
      options.logger?.warn({ err: error, dir: options.dir }, 'the pending approvals could not be read');
    }
  };
  const watchers: FSWatcher[] = [folders.pending, folders.answers].map((folder) =>
    watch(folder, { persistent: false }, safeRefresh).on('error', () => undefined),
  );
  const timer = setInterval(safeRefresh, options.recheckMs ?? 2000);
  timer.unref();
  safeRefresh();

  return {
    dir: options.dir,
    open(request, where) {
      const approval = pendingApprovalOf(request, newApprovalId(), where, now());
      const answered = new Promise<ApprovalAnswer>((resolve) => {
        own.set(approval.id, { approval, resolve });
      });
      seen.set(approval.id, approval);
      writeCard(folders, approval, self);
      const expire = () => {
        try {
          claimAnswer(folders, approval.id, { outcome: 'expired', at: now().toISOString() });
          settle(approval.id);
        } catch (error) {
          options.logger?.warn({ err: error, dir: options.dir }, 'an expired approval could not be stored');
        }
        // Whatever the folder says, a call whose time is up is not left waiting.
        const entry = own.get(approval.id);
        if (!entry) return;
        own.delete(approval.id);
        seen.delete(approval.id);
        remember(approval.id, 'expired');
        entry.resolve('deny');
        emit({ type: 'answered', approval, outcome: 'expired' });
      };
      if (request.signal.aborted) queueMicrotask(expire);
      else request.signal.addEventListener('abort', expire, { once: true });
      void answered.then(() => request.signal.removeEventListener('abort', expire));
      emit({ type: 'opened', approval });
      return { approval, answered };
    },
    answer(id, answer, by) {
      if (!isCardId(id)) return 'unknown';
      const card = own.get(id)?.approval ?? readCard(folders, id)?.approval;
      if (!card || readAnswer(folders, id))
        return closed.has(id) || readAnswer(folders, id) ? 'already-answered' : 'unknown';
      // A remembered answer wider than the card allows counts as the widest it allows.
      const given = allowedAnswer(answer, card.scope?.remember ?? 'none');
      if (!claimAnswer(folders, id, { outcome: given, by, at: now().toISOString() }))
        return 'already-answered';
      if (own.has(id)) settle(id);
      else safeRefresh();
      return 'answered';
    },
    list() {
      safeRefresh();
      return [...seen.values()].sort((a, b) => a.askedAt.getTime() - b.askedAt.getTime());
    },
    outcome: (id) => closed.get(id) ?? (isCardId(id) ? readAnswer(folders, id)?.outcome : undefined),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      clearInterval(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}

/** True while process `pid` runs (one of another user counts as running). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
