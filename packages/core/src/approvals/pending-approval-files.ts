import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../util/private-files.js';
import type { ApprovalOutcome, PendingApproval } from './pending-approvals.js';

/**
 * The files of the pending approvals shared by the processes of one data folder: one file per
 * card waiting (`pending/<id>.json`, written by the process that asked) and one per answer
 * (`answers/<id>.json`, linked into place so the first answer anywhere is the only one). All
 * 0600 in 0700 folders. Synchronous: the files are a few hundred bytes, an answer is a rare
 * human event, and the registry's `answer` and `list` stay synchronous for every surface.
 */
export interface ApprovalFolders {
  pending: string;
  answers: string;
}

/** Who asked a card: the process that waits for its answer. */
export interface CardOwner {
  pid: number;
  host: string;
}

/** An answer as stored: how the card ended, where, and when. */
export interface StoredAnswer {
  outcome: ApprovalOutcome;
  by?: string | undefined;
  at: string;
}

const ID = /^[a-z0-9]{1,40}$/;
const CARD_FILE = /^([a-z0-9]{1,40})\.json$/;

/** True for an id a card may have (it names a file: nothing else is looked up). */
export function isCardId(id: string): boolean {
  return ID.test(id);
}

/** The two folders under `dir`, created 0700 when missing. */
export function openApprovalFolders(dir: string): ApprovalFolders {
  const folders = { pending: join(dir, 'pending'), answers: join(dir, 'answers') };
  mkdirSync(folders.pending, { recursive: true, mode: PRIVATE_DIR_MODE });
  mkdirSync(folders.answers, { recursive: true, mode: PRIVATE_DIR_MODE });
  return folders;
}

/** Writes `text` to a new temporary file (0600, flushed) in `folder`; returns its path. */
function writeTemporary(folder: string, text: string): string {
  const temporary = join(folder, `.${randomBytes(6).toString('hex')}.tmp`);
  const descriptor = openSync(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    writeSync(descriptor, text);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  return temporary;
}

/** Writes a card whole (renamed into place: a reader sees all of it or nothing). */
export function writeCard(folders: ApprovalFolders, approval: PendingApproval, owner: CardOwner): void {
  const text = JSON.stringify({
    ...approval,
    askedAt: approval.askedAt.toISOString(),
    expiresAt: approval.expiresAt.toISOString(),
    owner,
  });
  renameSync(writeTemporary(folders.pending, text), join(folders.pending, `${approval.id}.json`));
}

/** Removes a card's file (gone already is fine). */
export function removeCard(folders: ApprovalFolders, id: string): void {
  rmSync(join(folders.pending, `${id}.json`), { force: true });
}

/**
 * Stores the first answer to card `id`: true when this is it, false when the card was answered
 * (or expired) already. A hard link fails when the name exists, so of two processes answering
 * at once exactly one wins, and a reader never sees half an answer.
 */
export function claimAnswer(folders: ApprovalFolders, id: string, answer: StoredAnswer): boolean {
  const temporary = writeTemporary(folders.answers, JSON.stringify(answer));
  try {
    linkSync(temporary, join(folders.answers, `${id}.json`));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** The stored answer to card `id`, or undefined while it has none. */
export function readAnswer(folders: ApprovalFolders, id: string): StoredAnswer | undefined {
  const parsed = readJson(join(folders.answers, `${id}.json`)) as Partial<StoredAnswer> | undefined;
  if (typeof parsed?.outcome !== 'string' || !OUTCOMES.includes(parsed.outcome)) return undefined;
  return {
    outcome: parsed.outcome,
    by: typeof parsed.by === 'string' ? parsed.by : undefined,
    at: String(parsed.at),
  };
}

const OUTCOMES: readonly string[] = ['once', 'conversation', 'always', 'deny', 'expired'];

/** Every card waiting, with who asked it; a file that is not a card is skipped. */
export function readCards(folders: ApprovalFolders): Array<{ approval: PendingApproval; owner: CardOwner }> {
  const cards: Array<{ approval: PendingApproval; owner: CardOwner }> = [];
  for (const name of readdirSync(folders.pending)) {
    const id = CARD_FILE.exec(name)?.[1];
    if (id === undefined) continue;
    const card = readCard(folders, id);
    if (card) cards.push(card);
  }
  return cards;
}

/** One waiting card, or undefined when there is none (or it is not what this writes). */
export function readCard(
  folders: ApprovalFolders,
  id: string,
): { approval: PendingApproval; owner: CardOwner } | undefined {
  const raw = readJson(join(folders.pending, `${id}.json`)) as Record<string, unknown> | undefined;
  if (!raw || raw.id !== id || typeof raw.tool !== 'string' || typeof raw.argument !== 'string')
    return undefined;
  if (raw.rule !== 'send' && raw.rule !== 'persist') return undefined;
  const askedAt = new Date(String(raw.askedAt));
  const expiresAt = new Date(String(raw.expiresAt));
  const owner = raw.owner as Partial<CardOwner> | undefined;
  if (Number.isNaN(askedAt.getTime()) || Number.isNaN(expiresAt.getTime())) return undefined;
  if (typeof owner?.pid !== 'number' || typeof owner.host !== 'string') return undefined;
  const { owner: _owner, ...rest } = raw;
  return {
    approval: { ...(rest as unknown as PendingApproval), askedAt, expiresAt },
    owner: { pid: owner.pid, host: owner.host },
  };
}

/** Removes answers older than `keepMs`: late clicks on cards that old are told the card is closed. */
export function pruneAnswers(folders: ApprovalFolders, keepMs: number, now: number): void {
  for (const name of readdirSync(folders.answers)) {
    const path = join(folders.answers, name);
    const info = statOrUndefined(path);
    if (info && now - info.mtimeMs > keepMs) rmSync(path, { force: true });
  }
}

function statOrUndefined(path: string): { mtimeMs: number } | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
