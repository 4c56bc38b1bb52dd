import { createDeadline } from '../model/deadline.js';
import type { ApprovalRequest, ApproveFunction } from '../types.js';
import type { Logger } from '../util/logger.js';
import { raceSignal } from '../util/race-signal.js';

/**
 * Asks `approve` within the time limit: true only when it resolves `true` in time. A rejection or
 * a time-out is a denial; the caller's abort propagates.
 */
export async function askApproval(
  approve: ApproveFunction,
  request: Omit<ApprovalRequest, 'signal'>,
  signal: AbortSignal | undefined,
  logger: Logger,
): Promise<boolean> {
  const deadline = createDeadline(request.timeoutMs, 'nobody approved in time', signal);
  try {
    return (await raceSignal(approve({ ...request, signal: deadline.signal }), deadline.signal)) === true;
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (!deadline.signal.aborted)
      logger.warn({ err: error, tool: request.tool }, 'the approve hook failed; denied');
    return false;
  } finally {
    deadline.clear();
  }
}
