import { describe, expect, it } from 'vitest';
import { buildNewTask } from './new-task.js';
import { taskDetailView, taskSummaryView } from './task-view.js';

const now = new Date('2026-11-28T09:00:00.000Z');

function waitingTask() {
  const task = buildNewTask({ instructions: 'Post the weekly report.', owner: { by: 'dashboard' } }, [], {
    now,
  });
  task.state = 'waiting';
  task.steps.push({
    number: 1,
    asked: 'Step 1',
    startedAt: now.toISOString(),
    calls: [
      {
        tool: 'FETCH_URL',
        argument: 'http://127.0.0.1/a',
        status: 'finished',
        result: { text: 'x'.repeat(50) },
      },
    ],
  });
  task.approvals = [
    {
      id: 'a1',
      step: 1,
      tool: 'RUN_CMD',
      argument: 'ls',
      rule: 'persist',
      reason: 'It would change saved state.',
      askedAt: now.toISOString(),
      expiresAt: '2026-11-29T09:00:00.000Z',
    },
  ];
  return task;
}

describe('the task views', () => {
  it('lists a task with its owner, step count and the call it waits for', () => {
    const view = taskSummaryView(waitingTask());
    expect(view).toMatchObject({ owner: 'dashboard', agent: 'default', state: 'waiting', steps: 1 });
    expect(view.approval).toEqual({
      id: 'a1',
      tool: 'RUN_CMD',
      argument: 'ls',
      rule: 'persist',
      reason: 'It would change saved state.',
      expiresAt: '2026-11-29T09:00:00.000Z',
      // Recorded without a scope (before scopes were kept): once or deny only.
      choices: { task: false, always: false },
    });
    expect(view.waiting).toMatch(/\w/);
  });

  it('shows a task with its steps, each result cut where asked', () => {
    const view = taskDetailView(waitingTask(), { maxResultChars: 10 });
    expect(view.steps[0]?.toolCalls[0]?.result).toBe('x'.repeat(10));
    expect(view).toMatchObject({ instructions: 'Post the weekly report.', after: [], notes: [] });
    expect(taskDetailView(waitingTask()).steps[0]?.toolCalls[0]?.result).toHaveLength(50);
  });
});
