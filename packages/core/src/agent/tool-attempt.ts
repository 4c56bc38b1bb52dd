import { wrapUntrusted, wrapUsersWords } from '../prompt/untrusted.js';
import type { AgentToolCall, CallLabels, Tool, ToolResult } from '../types.js';
import { CALL_CHECKS, type CallStop, type CheckedCall } from './call-checks.js';
import type { CallGuard } from './call-guard.js';
import type { RequestedCall } from './resolve-calls.js';
import { type RunToolOptions, runTool } from './run-tool.js';
import type { Turn } from './turn.js';

/** How one call ended for the loop: the text the model reads, and the record it added. */
export interface Attempt {
  text: string;
  outcome: 'ok' | 'failed' | 'repeat' | 'cycle';
  images?: string[];
  record: AgentToolCall;
}

/**
 * Runs or refuses one requested call: walks {@link CALL_CHECKS} in order, runs the call when
 * none stops it, and returns the text the model reads, whether it failed, and the record of the
 * call it added to the answer's `toolCalls`.
 */
export async function attempt(
  turn: Turn,
  guard: CallGuard,
  call: RequestedCall,
  iteration: number,
): Promise<Attempt> {
  const { settings } = turn;
  const { tool, argument } = call;
  const checked: CheckedCall = {
    turn,
    guard,
    call,
    args: call.arguments,
    runArgs: undefined,
    parsed: undefined,
    labels: undefined,
    decision: undefined,
  };
  const span = settings.trace.tool({ tool, argument, iteration });
  let stop: CallStop | undefined;
  try {
    for (const check of CALL_CHECKS) {
      const found = check(checked);
      stop = found instanceof Promise ? await found : found;
      if (stop) break;
    }
  } catch (error) {
    // Only the caller's abort (while the user was asked) gets here: its span ends with it.
    span.end({ result: { text: '', isError: true }, thrown: error });
    throw error;
  }
  const { args, parsed, decision } = checked;
  // The record is built property by property: spreads of it were a tenth of the loop (profiled).
  const recordOf = (result: ToolResult, durationMs: number): AgentToolCall => {
    const record: AgentToolCall = { tool, argument, result, durationMs };
    if (args) record.arguments = args;
    if (decision) record.containment = decision;
    return record;
  };
  if (stop) {
    const skipped = stop.reason;
    const result = { text: stop.text, isError: true };
    const record = recordOf(result, 0);
    record.skipped = skipped;
    turn.toolCalls.push(record);
    settings.emit?.({ type: 'tool-call-end', tool, argument, iteration, result, durationMs: 0, skipped });
    span.end({ result, skipped, decision });
    return {
      text: stop.text,
      outcome: skipped === 'repeat' || skipped === 'cycle' ? skipped : 'failed',
      record,
    };
  }
  const labels = checked.labels as CallLabels;
  // Only now may the call run: a call skipped or refused never showed its argument as started
  // (a status line would otherwise show, say, the URL a refused call built).
  settings.emit?.({ type: 'tool-call-start', tool, argument, iteration });
  const emit = settings.emit;
  const options: RunToolOptions = {
    labels: settings.containment.snapshot(),
    checkRedirect: settings.containment.redirectCheck(tool, labels),
    approve: settings.approve,
    toolRunsLeft: Math.max(0, settings.maxToolIterations - iteration),
    signal: settings.signal,
    timeoutMs: (call.toolRef as Tool).timeoutMs ?? settings.toolTimeoutMs,
    logger: settings.logger,
    conversationId: settings.conversationId,
    askedBy: settings.askedBy,
  };
  if (checked.runArgs) options.arguments = checked.runArgs;
  if (parsed) options.parsed = parsed;
  if (emit) options.onStatus = (text: string) => emit({ type: 'status', text });
  const run = () => runTool(call.toolRef as Tool, argument, options);
  let ran: Awaited<ReturnType<typeof runTool>>;
  try {
    ran = await span.run(run);
  } catch (error) {
    // Only the caller's abort rejects: its span ends with it.
    span.end({ result: { text: '', isError: true }, thrown: error });
    throw error;
  }
  const { result, durationMs, thrown } = ran;
  span.end({ result, decision, thrown });
  const usersWords =
    (call.toolRef as Tool).resultsByUser === true &&
    !labels.outside &&
    (result.labels?.outside ?? []).length === 0;
  // The user's own instructions may name calls to make: they are not output to guard against.
  if (!usersWords) turn.outputs.push(result.text);
  // What the call sent is never evidence that outside content gave it: a result may repeat it.
  const sent = [argument, ...stringsIn(checked.runArgs ?? args)];
  settings.containment.absorb(`${tool} ${argument}`.slice(0, 120), labels, result.text, sent);
  for (const source of result.labels?.outside ?? []) settings.containment.addOutside(source);
  for (const source of result.labels?.private ?? []) settings.containment.addPrivate(source);
  for (const origin of result.labels?.origins ?? []) settings.containment.addOutsideOrigin(origin);
  const record = recordOf(result, durationMs);
  turn.toolCalls.push(record);
  settings.emit?.({ type: 'tool-call-end', tool, argument, iteration, result, durationMs });
  const images = result.images ?? [];
  const unseen = images.length > 0 && !(await settings.canSeeImages());
  const content = unseen
    ? `${result.text}\n(${images.length === 1 ? 'An image came' : `${images.length} images came`} with this result; this model does not read images, so none can be shown.)`
    : result.text;
  const text = (usersWords ? wrapUsersWords : wrapUntrusted)(content, {
    tool,
    argument,
    isError: result.isError === true,
    maxChars: settings.maxToolOutputChars,
  });
  return {
    text,
    outcome: result.isError === true ? 'failed' : 'ok',
    ...(images.length > 0 && !unseen ? { images } : {}),
    record,
  };
}

/** Every string value in a call's arguments object, however deep. */
function stringsIn(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') found.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, found);
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) stringsIn(item, found);
  return found;
}
