import { dirname, join } from 'node:path';
import { coreError } from '../errors.js';
import type { ApprovalScope, ContainmentRule } from '../types.js';
import { writePrivateFile } from '../util/private-files.js';
import { readTextIfPresent } from '../util/read-if-present.js';

/** One saved "Always" answer: calls of `tool` under `rule` to `target` run without asking. */
export interface ApprovalRule {
  /** Short and stable: what `revoke` takes. */
  id: string;
  tool: string;
  rule: ContainmentRule;
  /** The destination or operation; absent: every call of the tool under `rule`. */
  target?: string;
  /** When it was saved (ISO 8601). */
  createdAt: string;
  /** A "this conversation" answer: the conversation it holds in (absent: an "Always" rule). */
  conversationId?: string;
  /** When a "this conversation" answer ends (ISO 8601). */
  expiresAt?: string;
}

/**
 * The saved rules of one data folder, read afresh on every use: the "Always" rules
 * (`approval-rules.json`) and the "this conversation" answers
 * (`approval-conversation-rules.json`, each with its conversation and its end).
 */
export interface ApprovalRuleStore {
  /** The file the "Always" rules live in. */
  readonly file: string;
  /** The "Always" rules, then the "this conversation" answers still in force. */
  list(): Promise<ApprovalRule[]>;
  /**
   * The saved rule covering `scope`, if any: an "Always" rule, or one of `conversationId`'s
   * answers still in force; never one for a scope that may not be remembered.
   */
  find(scope: ApprovalScope, conversationId?: string): Promise<ApprovalRule | undefined>;
  /**
   * Saves a rule for `scope` (the one already saved when there is one): an "Always" rule, or,
   * with `conversationId`, a "this conversation" answer that ends after `conversationTtlMs`.
   */
  add(scope: ApprovalScope, conversationId?: string): Promise<ApprovalRule>;
  /** Removes the rule with this id; false when there is none. */
  revoke(id: string): Promise<boolean>;
  /** Removes every rule; resolves how many there were. */
  clear(): Promise<number>;
  /** Removes a conversation's answers (it was reset or deleted); resolves how many there were. */
  forgetConversation(conversationId: string): Promise<number>;
}

/** Options of {@link createApprovalRuleStore}. */
export interface ApprovalRuleStoreOptions {
  now?: () => Date;
  /** How long a "this conversation" answer holds, in milliseconds. Default 24 hours. */
  conversationTtlMs?: number;
}

/** Defaults of {@link createApprovalRuleStore}. */
export const APPROVAL_RULE_DEFAULTS = {
  /**
   * A "this conversation" answer holds a day at most: a Discord channel, a conversation here,
   * never ends by itself, and an answer given for one talk must not become a standing rule.
   */
  conversationTtlMs: 24 * 60 * 60 * 1000,
};

/** What a rule or a scope names: the tool, the rule and the target. */
export interface RuleShape {
  tool: string;
  rule: ContainmentRule;
  target?: string | undefined;
}

/** The name of the rules file in the data folder. */
export const APPROVAL_RULES_FILE = 'approval-rules.json';
/**
 * The "this conversation" answers, beside the rules file. A file of their own: a program that
 * knows only "Always" rules never reads one of them as a rule for every conversation.
 */
export const CONVERSATION_APPROVALS_FILE = 'approval-conversation-rules.json';

/** True when `rule` covers `scope`: the same tool and rule, and the same target (or none saved). */
export function ruleCovers(rule: RuleShape, scope: ApprovalScope): boolean {
  return (
    rule.tool === scope.tool &&
    rule.rule === scope.rule &&
    (rule.target === undefined || rule.target === scope.target)
  );
}

/** One line a person reads: `POST may send to mcp:notes/post`, and for which conversation. */
export function describeRule(
  rule: RuleShape & { conversationId?: string | undefined; expiresAt?: string | undefined },
): string {
  const what =
    rule.rule === 'send'
      ? `${rule.tool} may send to ${rule.target ?? 'any destination'}`
      : `${rule.tool} may change saved state${rule.target ? ` (${rule.target})` : ''}`;
  if (rule.conversationId === undefined) return what;
  return `${what} in conversation ${rule.conversationId}${rule.expiresAt ? ` until ${rule.expiresAt}` : ''}`;
}

/**
 * The saved approval rules beside `file` (each file 0600, written whole through a temporary
 * file). A file that is not what this writes is refused with one sentence, and is never
 * overwritten; answers past their end are dropped.
 *
 * @example
 * const rules = createApprovalRuleStore(join(home, APPROVAL_RULES_FILE));
 * const lines = (await rules.list()).map((rule) => `${rule.id}: ${describeRule(rule)}`);
 */
export function createApprovalRuleStore(
  file: string,
  options: ApprovalRuleStoreOptions = {},
): ApprovalRuleStore {
  const now = options.now ?? (() => new Date());
  const ttlMs = options.conversationTtlMs ?? APPROVAL_RULE_DEFAULTS.conversationTtlMs;
  const always = ruleFile(file, 'approval rules');
  const conversations = ruleFile(
    join(dirname(file), CONVERSATION_APPROVALS_FILE),
    '"this conversation" approvals',
  );
  const live = (rule: ApprovalRule) =>
    rule.expiresAt !== undefined && Date.parse(rule.expiresAt) > now().getTime();
  const readConversations = async () => (await conversations.read()).filter(live);
  // Writes of one process happen one at a time, so two answers never lose one another's rule.
  let queue: Promise<unknown> = Promise.resolve();
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }
  async function addTo(target: 'always' | 'conversation', scope: ApprovalScope, conversationId?: string) {
    const store = target === 'always' ? always : conversations;
    const rules = target === 'always' ? await always.read() : await readConversations();
    const same = rules.find(
      (rule) =>
        rule.tool === scope.tool &&
        rule.rule === scope.rule &&
        rule.target === scope.target &&
        rule.conversationId === conversationId,
    );
    if (same && target === 'always') return same;
    const rule: ApprovalRule = {
      id: same?.id ?? newId([...(await always.read()), ...rules]),
      tool: scope.tool,
      rule: scope.rule,
      ...(scope.target !== undefined ? { target: scope.target } : {}),
      createdAt: now().toISOString(),
      ...(conversationId !== undefined
        ? { conversationId, expiresAt: new Date(now().getTime() + ttlMs).toISOString() }
        : {}),
    };
    await store.write([...rules.filter((saved) => saved !== same), rule]);
    return rule;
  }
  return {
    file,
    list: async () => [...(await always.read()), ...(await readConversations())],
    async find(scope, conversationId) {
      if (scope.remember === 'always') {
        const rule = (await always.read()).find((saved) => ruleCovers(saved, scope));
        if (rule) return rule;
      }
      if (scope.remember === 'none' || conversationId === undefined) return undefined;
      return (await readConversations()).find(
        (saved) => saved.conversationId === conversationId && ruleCovers(saved, scope),
      );
    },
    add: (scope, conversationId) =>
      serial(() =>
        conversationId === undefined ? addTo('always', scope) : addTo('conversation', scope, conversationId),
      ),
    revoke(id) {
      return serial(async () => {
        for (const store of [always, conversations]) {
          const rules = await store.read();
          const kept = rules.filter((rule) => rule.id !== id);
          if (kept.length === rules.length) continue;
          await store.write(kept.filter((rule) => rule.expiresAt === undefined || live(rule)));
          return true;
        }
        return false;
      });
    },
    clear() {
      return serial(async () => {
        // Both read first: a file that cannot be read refuses before anything is removed.
        const rules = await always.read();
        const answers = await conversations.read();
        if (rules.length > 0) await always.write([]);
        if (answers.length > 0) await conversations.write([]);
        return rules.length + answers.filter(live).length;
      });
    },
    forgetConversation(conversationId) {
      return serial(async () => {
        const rules = await conversations.read();
        const kept = rules.filter((rule) => rule.conversationId !== conversationId && live(rule));
        if (kept.length !== rules.length) await conversations.write(kept);
        return rules.filter((rule) => rule.conversationId === conversationId && live(rule)).length;
      });
    },
  };
}

/** One file of rules: read whole (none when missing), written whole. */
function ruleFile(file: string, what: string) {
  return {
    async read(): Promise<ApprovalRule[]> {
      const text = await readTextIfPresent(file);
      if (text === undefined) return [];
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw coreError(
          'INVALID_OPTION',
          `${file} is not valid JSON; fix or remove it to use saved ${what}.`,
        );
      }
      const rules = (parsed as { rules?: unknown } | null)?.rules;
      if (!Array.isArray(rules) || !rules.every(isRule))
        throw coreError(
          'INVALID_OPTION',
          `${file} does not hold a list of ${what}; fix or remove it to use saved ${what}.`,
        );
      return rules;
    },
    async write(rules: ApprovalRule[]): Promise<void> {
      await writePrivateFile(file, `${JSON.stringify({ version: 1, rules }, null, 2)}\n`);
    },
  };
}

function isRule(value: unknown): value is ApprovalRule {
  const rule = value as Partial<ApprovalRule> | null;
  return (
    typeof rule === 'object' &&
    rule !== null &&
    typeof rule.id === 'string' &&
    typeof rule.tool === 'string' &&
    (rule.rule === 'send' || rule.rule === 'persist') &&
    (rule.target === undefined || typeof rule.target === 'string') &&
    (rule.conversationId === undefined || typeof rule.conversationId === 'string') &&
    (rule.expiresAt === undefined || typeof rule.expiresAt === 'string') &&
    typeof rule.createdAt === 'string'
  );
}

function newId(rules: readonly ApprovalRule[]): string {
  for (;;) {
    const id = `r${Math.random().toString(36).slice(2, 8)}`;
    if (!rules.some((rule) => rule.id === id)) return id;
  }
}
