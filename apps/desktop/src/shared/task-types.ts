// The Tasks API's shapes: the one task view of `@macstats/tasks` that `macstats task --json` prints
// too, so the page, the dashboard's API and the CLI cannot drift apart.
export type {
  TaskApprovalView,
  TaskDetailView,
  TaskStepView,
  TaskSummaryView,
} from '@macstats/tasks';
