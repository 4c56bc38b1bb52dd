export { budgetSentence, spent } from './budget.js';
export { TASK_DEFAULTS } from './defaults.js';
export type { TaskErrorCode } from './error-codes.js';
export { buildNewTask, checkTaskId, invalidTask, type NewTask, TASK_ID_PATTERN } from './new-task.js';
export { createOwnerAsks, type OwnerAsks, ownerUser, type TaskAskOwner } from './owner-asks.js';
export { createRunnerLock, type RunnerLock } from './runner-lock.js';
export { CUT_CALL_SENTENCE } from './step-recorder.js';
export { type TaskStepView, taskStepViews } from './step-view.js';
export { cancelTask, resumeTask, type TaskActionOutcome } from './task-actions.js';
export {
  type ApprovalDecision,
  approvalWaitSentence,
  createStepApprover,
  decideApproval,
  pendingApproval,
} from './task-approval.js';
export { parseTaskCommand, parseWakeTime, type TaskCommand } from './task-command.js';
export {
  MAX_PENDING_DELIVERIES,
  readOutside,
  recordDelivery,
  removeDelivery,
  taskDeliveryId,
  taskDeliveryText,
} from './task-delivery.js';
export { formatTaskFile, parseTaskFile, parseTaskRecord } from './task-file.js';
export { cycleSentence, findCycle } from './task-graph.js';
export type { TaskDeliver } from './task-outbox.js';
export { createTaskRunner, type TaskEvent, type TaskRunner, type TaskRunnerOptions } from './task-runner.js';
export {
  createTaskStore,
  type TaskListing,
  type TaskStore,
  type TaskStoreOptions,
} from './task-store.js';
export { createTaskTool, type TaskToolOptions } from './task-tool.js';
export {
  FINAL_STATES,
  type Task,
  type TaskApproval,
  type TaskBudget,
  type TaskCall,
  type TaskDelivery,
  type TaskLabels,
  type TaskNotify,
  type TaskOutcome,
  type TaskOwner,
  type TaskRemember,
  type TaskState,
  type TaskStep,
} from './task-types.js';
export {
  type TaskApprovalView,
  type TaskDetailView,
  type TaskSummaryView,
  taskDetailView,
  taskSummaryView,
} from './task-view.js';
