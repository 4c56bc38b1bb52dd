import { pendingApproval } from './task-approval.js';
import type { Task, TaskStep } from './task-types.js';

const RECORD_HEADING = '## Record';
const FENCE = '```';

function quoteBlock(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

function short(text: string, chars = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > chars ? `${flat.slice(0, chars)}…` : flat;
}

function formatStep(step: TaskStep): string {
  const lines = [`### Step ${step.number}${step.endedAt ? '' : ' (not finished)'}`, ''];
  for (const call of step.calls) {
    const outcome =
      call.status === 'started' ? 'started, no result recorded' : short(call.result?.text ?? '', 160);
    lines.push(`- \`${call.tool}: ${short(call.argument, 120)}\` → ${outcome}`);
  }
  if (step.reply) lines.push('', quoteBlock(short(step.reply, 600)));
  return lines.join('\n');
}

/**
 * A task as its Markdown file: a readable summary (title, state, instructions, notes, steps),
 * then the record the runner reads back, as JSON under `## Record`.
 */
export function formatTaskFile(task: Task): string {
  const pending = pendingApproval(task);
  const parts = [
    `# ${task.title}`,
    '',
    `- id: ${task.id}`,
    `- state: ${task.state}`,
    `- agent: ${task.agent}`,
    `- owner: ${task.owner.by}${task.owner.reportTo ? ` (reports to ${task.owner.reportTo}${task.owner.notify ? `, ${task.owner.notify}` : ''})` : ''}`,
    ...(task.deliveries?.length ? [`- posts not yet delivered: ${task.deliveries.length}`] : []),
    ...(task.after.length > 0 ? [`- after: ${task.after.join(', ')}`] : []),
    ...(task.wakeAt ? [`- wakes at: ${task.wakeAt}`] : []),
    `- budget: ${task.budget.steps} steps, ${task.budget.tokens} tokens, ${Math.round(task.budget.wallTimeMs / 1000)} s`,
    ...(task.result !== undefined ? [`- result: ${short(task.result)}`] : []),
    ...(task.error ? [`- error: ${task.error}`] : []),
    ...(pending
      ? [`- waits for approval: ${pending.tool} (${pending.rule}) until ${pending.expiresAt}`]
      : []),
    '',
    '## Instructions',
    '',
    task.instructions,
    '',
  ];
  if (task.notes.length > 0) parts.push('## Notes', '', ...task.notes.map((note) => `- ${short(note)}`), '');
  if (task.steps.length > 0)
    parts.push('## Steps', '', ...task.steps.map(formatStep).flatMap((s) => [s, '']));
  parts.push(
    RECORD_HEADING,
    '',
    'The runner reads this record; the text above is written from it. Edit the record, not the text.',
    '',
    `${FENCE}json`,
    JSON.stringify(task, null, 2),
    FENCE,
    '',
  );
  return parts.join('\n');
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

const STATES = new Set(['open', 'running', 'waiting', 'done', 'failed', 'cancelled']);

/** What is wrong with a record, in a few words; undefined when it is a task. */
function problemOf(value: Record<string, unknown>): string | undefined {
  for (const key of ['id', 'title', 'instructions', 'agent', 'state', 'createdAt', 'updatedAt'])
    if (typeof value[key] !== 'string') return `its "${key}" is missing or not text`;
  if (!STATES.has(value.state as string))
    return `its state "${String(value.state)}" is not one of ${[...STATES].join(', ')}`;
  if (typeof value.owner !== 'object' || value.owner === null) return 'its "owner" is missing';
  const budget = value.budget as Record<string, unknown> | undefined;
  if (!budget || !['steps', 'tokens', 'wallTimeMs'].every((key) => typeof budget[key] === 'number'))
    return 'its "budget" needs steps, tokens and wallTimeMs as numbers';
  if (!isStringArray(value.after)) return 'its "after" is not a list of task ids';
  if (!isStringArray(value.notes)) return 'its "notes" is not a list of text';
  if (!Array.isArray(value.steps)) return 'its "steps" is not a list';
  if (value.approvals !== undefined && !Array.isArray(value.approvals))
    return 'its "approvals" is not a list';
  return undefined;
}

/**
 * Reads a task file back: the task, or one sentence saying what is wrong with it (a hand edit
 * that broke its record, say). Never throws.
 */
export function parseTaskFile(text: string, name: string): { task: Task } | { problem: string } {
  const at = text.lastIndexOf(RECORD_HEADING);
  const open = at < 0 ? -1 : text.indexOf(`${FENCE}json`, at);
  const close = open < 0 ? -1 : text.indexOf(`\n${FENCE}`, open + 7);
  if (close < 0)
    return { problem: `The task file ${name} has no record under "${RECORD_HEADING}", so it is skipped.` };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(open + 7, close));
  } catch (error) {
    return {
      problem: `The task file ${name} has a record that is not valid JSON (${(error as Error).message}), so it is skipped.`,
    };
  }
  const checked = parseTaskRecord(value);
  return 'task' in checked ? checked : { problem: `The task file ${name} ${checked.problem}` };
}

/**
 * Checks a task record (a file's, or a database row's): the task, or the end of a sentence saying
 * what is wrong (`is skipped: its "state" …`). Never throws.
 */
export function parseTaskRecord(value: unknown): { task: Task } | { problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'has a record that is not an object, so it is skipped.' };
  const problem = problemOf(value as Record<string, unknown>);
  if (problem) return { problem: `is skipped: ${problem}.` };
  return { task: value as Task };
}
