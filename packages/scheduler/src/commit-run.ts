import type { RunRecord } from './run-history.js';
import { isLockLost } from './scheduler-errors.js';
import type { RunHistoryStore, ScheduleStateStore } from './scheduler-stores.js';
import type { SchedulerState } from './state-store.js';

/**
 * Saves `state` (unless `saveState` is false) and appends `records` to the history: in one step
 * when the store can (`commit`). Otherwise a state that cannot be written (a full disk) does not
 * lose the history lines too: they are appended, then the save's failure is thrown; a lost lock
 * is thrown at once.
 */
export async function commitRun(
  stores: { store: ScheduleStateStore; history: RunHistoryStore },
  state: SchedulerState,
  records: RunRecord[],
  saveState = true,
): Promise<void> {
  const { store, history } = stores;
  if (saveState && store.commit !== undefined) {
    await store.commit(state, records);
    return;
  }
  let saveFailure: unknown;
  if (saveState) {
    try {
      await store.save(state);
    } catch (error) {
      if (isLockLost(error)) throw error;
      saveFailure = error;
    }
  }
  for (const record of records) await history.append(record);
  if (saveFailure !== undefined) throw saveFailure;
}
