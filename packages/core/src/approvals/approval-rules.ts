import { readFile } from 'node:fs/promises';
import { coreError } from '../errors.js';
import type { ApprovalScope, ContainmentRule } from '../types.js';
import { writePrivateFile } from '../util/private-files.js';

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
}

/** The saved rules of one data folder (`approval-rules.json`), read afresh on every use. */
export interface ApprovalRuleStore {
  /** The file the rules live in. */
  readonly file: string;
  list(): Promise<ApprovalRule[]>;
  /** The saved rule covering `scope`, if any; never one for a scope that may not be remembered. */
  find(scope: ApprovalScope): Promise<ApprovalRule | undefined>;
  /** Saves a rule for `scope` (the one already saved when there is one). */
  add(scope: ApprovalScope): Promise<ApprovalRule>;
  /** Removes the rule with this id; false when there is none. */
  revoke(id: string): Promise<boolean>;
  /** Removes every rule; resolves how many there were. */
  clear(): Promise<number>;
}

/** What a rule or a scope names: the tool, the rule and the target. */
export interface RuleShape {
  tool: string;
  rule: ContainmentRule;
  target?: string | undefined;
}

/** The name of the rules file in the data folder. */
export const APPROVAL_RULES_FILE = 'approval-rules.json';

/** True when `rule` covers `scope`: the same tool and rule, and the same target (or none saved). */
export function ruleCovers(rule: RuleShape, scope: ApprovalScope): boolean {
  return (
    rule.tool === scope.tool &&
    rule.rule === scope.rule &&
    (rule.target === undefined || rule.target === scope.target)
  );
}

/** One line a person reads: `send to mcp:files/write_file with MCP_FILES`. */
export function describeRule(rule: RuleShape): string {
  if (rule.rule === 'send') return `${rule.tool} may send to ${rule.target ?? 'any destination'}`;
  return `${rule.tool} may change saved state${rule.target ? ` (${rule.target})` : ''}`;
}

/**
 * The saved approval rules in `file` (0600, written whole through a temporary file). A file
 * that is not what this writes is refused with one sentence, and is never overwritten.
 *
 * @example
 * const rules = createApprovalRuleStore(join(home, APPROVAL_RULES_FILE));
 * const lines = (await rules.list()).map((rule) => `${rule.id}: ${describeRule(rule)}`);
 */
export function createApprovalRuleStore(file: string): ApprovalRuleStore {
  async function read(): Promise<ApprovalRule[]> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw coreError(
        'INVALID_OPTION',
        `${file} is not valid JSON; fix or remove it to use saved approval rules.`,
      );
    }
    const rules = (parsed as { rules?: unknown } | null)?.rules;
    if (!Array.isArray(rules) || !rules.every(isRule))
      throw coreError(
        'INVALID_OPTION',
        `${file} does not hold a list of approval rules; fix or remove it to use saved approval rules.`,
      );
    return rules;
  }
  async function write(rules: ApprovalRule[]): Promise<void> {
    await writePrivateFile(file, `${JSON.stringify({ version: 1, rules }, null, 2)}\n`);
  }
  // Writes of one process happen one at a time, so two answers never lose one another's rule.
  let queue: Promise<unknown> = Promise.resolve();
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  }
  return {
    file,
    list: read,
    async find(scope) {
      if (scope.remember !== 'always') return undefined;
      return (await read()).find((rule) => ruleCovers(rule, scope));
    },
    add(scope) {
      return serial(async () => {
        const rules = await read();
        const same = rules.find(
          (rule) => rule.tool === scope.tool && rule.rule === scope.rule && rule.target === scope.target,
        );
        if (same) return same;
        const rule: ApprovalRule = {
          id: newId(rules),
          tool: scope.tool,
          rule: scope.rule,
          ...(scope.target !== undefined ? { target: scope.target } : {}),
          createdAt: new Date().toISOString(),
        };
        await write([...rules, rule]);
        return rule;
      });
    },
    revoke(id) {
      return serial(async () => {
        const rules = await read();
        const kept = rules.filter((rule) => rule.id !== id);
        if (kept.length === rules.length) return false;
        await write(kept);
        return true;
      });
    },
    clear() {
      return serial(async () => {
        const rules = await read();
        if (rules.length > 0) await write([]);
        return rules.length;
      });
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
    typeof rule.createdAt === 'string'
  );
}

function newId(rules: readonly ApprovalRule[]): string {
  for (;;) {
    const id = `r${Math.random().toString(36).slice(2, 8)}`;
    if (!rules.some((rule) => rule.id === id)) return id;
  }
}
