import type { Readable, Writable } from 'node:stream';
import type { AgentEvent, SharedPendingApprovals } from '@macstats/core';
import { isContentCaptureOn } from '@macstats/observability';
import { createAnswerStream } from '../answer-stream.js';
import type { AppConfig } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { connectSharedState } from '../shared-state.js';
import { createTerminalApprover } from '../terminal-approval.js';
import { approvalRules, pendingApprovals } from './approvals-command.js';

/**
 * `macstats ask "<question>"`: one answer, streamed to standard output; tool activity on standard
 * error. A call that needs the user's approval asks y/N on the terminal, and is refused when
 * standard input is not one. With `DATABASE_URL` its SCHEDULER tool, conversation memory (`-c`)
 * and MEMORY notes are the shared ones.
 */
export async function askCommand(
  config: AppConfig,
  io: CommandIo,
  options: {
    question: string;
    signal: AbortSignal;
    conversationId?: string;
    /** The agent profile to answer as (`--agent`); default the app's agent. */
    agent?: string;
    /** The terminal approvals are asked on: standard input and error. None: refused. */
    terminal?: { input: Readable & { isTTY?: boolean }; output: Writable };
  },
): Promise<number> {
  // An empty question would only send the model nothing to answer.
  if (options.question.trim() === '') {
    io.err(
      'macstats ask: the question is empty; ask something, such as `macstats ask "how busy is the CPU?"`.',
    );
    return EXIT.usage;
  }
  const shared = await connectSharedState(config, io.logger);
  let runtime: Runtime;
  let pending: SharedPendingApprovals | undefined;
  try {
    // Prompts and replies go in its spans only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT says so.
    const recordContent = isContentCaptureOn(config.setting);
    runtime = await createRuntime(config, io.logger, options.signal, { ...shared, recordContent });
  } catch (error) {
    await shared.close();
    if (options.signal.aborted) return EXIT.interrupted;
    throw error;
  }
  try {
    // Ollama down, or up without the model: the start-up check already names the fix (and the
    // models installed), so no chat request is sent only to fail.
    if (!runtime.server.ok && runtime.server.problem) {
      io.err(runtime.server.problem);
      return EXIT.failed;
    }
    // Without -c there is no conversation to keep MEMORY's notes in: the question use leaves it
    // out, rather than asking to approve a note that then fails for want of one.
    const agents = runtime.app.directoryFor(options.conversationId ? 'chat' : 'question');
    const agent = options.agent === undefined ? agents.agent : agents.get(options.agent);
    if (!agent) {
      io.err(
        noSuchAgent(
          options.agent ?? '',
          agents.profiles.map((profile) => profile.id),
        ),
      );
      return EXIT.usage;
    }
    let wroteAnswer = false;
    const stream = createAnswerStream((text) => {
      if (text !== '') wroteAnswer = true;
      io.write(text);
    });
    const onEvent = (event: AgentEvent) => {
      stream.onEvent(event);
      if (event.type === 'tool-call-start') io.err(`→ ${event.tool}: ${event.argument}`);
      if (event.type === 'tool-call-end') {
        const outcome = event.skipped ? `skipped (${event.skipped})` : event.result.isError ? 'failed' : 'ok';
        const reason = event.result.isError ? `: ${firstLine(event.result.text)}` : '';
        io.err(`← ${event.tool} ${outcome} in ${Math.round(event.durationMs)} ms${reason}`);
      }
      if (event.type === 'status') io.err(`… ${event.text}`);
    };
    // The terminal's cards are listed with every process's: another surface may answer them. A
    // data folder that cannot hold them leaves the terminal the only place to answer.
    pending = options.terminal?.input.isTTY === true ? sharedCards(config, io) : undefined;
    const approve = options.terminal
      ? createTerminalApprover({
          ...options.terminal,
          say: io.err,
          logger: io.logger,
          rules: approvalRules(config),
          pending,
        })
      : undefined;
    const answer = await agent.answer(options.question, {
      signal: options.signal,
      onEvent,
      askedBy: 'cli',
      ...(approve ? { approve } : {}),
      ...(options.conversationId ? { conversationId: options.conversationId } : {}),
    });
    if (answer.error) {
      // The reason Ollama failed is not an answer: it goes to standard error, so
      // `macstats ask ... > answer.txt` never saves an error sentence as the answer.
      if (wroteAnswer) io.write('\n');
      io.err(answer.text);
      return EXIT.failed;
    }
    stream.finish(answer.text);
    return EXIT.ok;
  } catch (error) {
    if (options.signal.aborted) return EXIT.interrupted;
    throw error;
  } finally {
    pending?.close();
    await runtime.close();
    await shared.close();
  }
}

/** The data folder's shared approval cards, or none (logged) when the folder cannot hold them. */
function sharedCards(config: AppConfig, io: CommandIo): SharedPendingApprovals | undefined {
  try {
    return pendingApprovals(config);
  } catch (error) {
    io.logger.warn({ err: error }, 'approval cards cannot be shared; only this terminal can answer');
    return undefined;
  }
}

/** The sentence for `--agent` naming an agent that is not installed. */
export function noSuchAgent(id: string, ids: readonly string[]): string {
  return ids.length > 0
    ? `There is no agent "${id}": the agents are ${ids.join(', ')}.`
    : `There is no agent "${id}": no agents are installed (a folder with AGENT.md under $MACSTATS_HOME/agents).`;
}

/** The first line of a tool's error text, cut to fit one terminal line. */
function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
