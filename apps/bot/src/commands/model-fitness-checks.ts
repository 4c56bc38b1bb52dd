import { checkModelServer, createChatModel } from '@macstats/app-runtime';
import { AGENT_DEFAULTS, silentLogger } from '@macstats/core';
import { estimateFixedPromptTokens } from '@macstats/core/internal';
import { type AppConfig, paths } from '../app-config.js';
import { assembleBotTools } from '../bot-tools.js';
import { POOR_SCORE } from '../eval/eval-report.js';
import { readEvalReport } from '../eval/save-report.js';
import { plural } from '../plural.js';
import { type Check, checkTimeout } from './doctor-checks.js';

/** Room a question, some history and the reply need besides the fixed prompt, in tokens. */
const ROOM_FOR_A_CONVERSATION = 4096;

/**
 * Whether the chosen model suits the agent: native tool calling, a context window the tool
 * list leaves room in, and its last `macstats eval` score. Warnings, not failures: the bot runs.
 */
export async function checkModelFitness(config: AppConfig): Promise<Check[]> {
  const server = await checkModelServer(config, { signal: checkTimeout() }).catch(() => null);
  const name = server?.model;
  if (!server?.ok || !name) return [];
  const checks: Check[] = [];
  if (server.tools === false)
    checks.push({
      status: 'warn',
      text: `${name} has no native tool calling, so tools go through the text protocol, which small models follow less reliably`,
      fix: 'choose a model with tools (`macstats eval` ranks the installed ones)',
    });

  const model = createChatModel(config, name);
  const reported = await model
    .capabilities({ signal: checkTimeout() })
    .then((found) => found.contextLength)
    .catch(() => null);
  const window = Math.min(
    config.modelContextLength ?? reported ?? Number.POSITIVE_INFINITY,
    config.modelMaxContext ?? AGENT_DEFAULTS.context.maxContextLength,
  );
  const tools = await assembleBotTools(config, { logger: silentLogger }).catch(() => null);
  if (tools) {
    const offered = tools.offered('chat');
    const fixed = estimateFixedPromptTokens(offered);
    await tools.close();
    if (Number.isFinite(window) && window < fixed + ROOM_FOR_A_CONVERSATION)
      checks.push({
        status: 'warn',
        text: `${name} has a context window of ${window} tokens, but the system prompt and the ${plural(offered.length, 'tool')} take about ${fixed}, leaving too little for a conversation`,
        fix: 'use a model with a longer context, raise MODEL_MAX_CONTEXT, or offer fewer tools',
      });
    else
      checks.push({
        status: 'ok',
        text: `the tool list (about ${fixed} tokens) fits ${name}'s context window${Number.isFinite(window) ? ` of ${window}` : ''}`,
      });
  }

  const report = await readEvalReport(paths(config).evalReport);
  const graded = report?.models.find((entry) => entry.model === name);
  if (!graded) checks.push({ status: 'skip', text: `${name} has not been graded: run \`macstats eval\`` });
  else if (graded.score < POOR_SCORE)
    checks.push({
      status: 'warn',
      text: `${name} scored poorly in the last eval (${graded.score.toFixed(2)}: tool calls ${Math.round(graded.toolCallSuccess * 100)}%, answers ${Math.round(graded.correctAnswers * 100)}%)`,
      fix:
        report?.best && report.best !== name
          ? `set the model to ${report.best}, which scored best`
          : 'try another model and run `macstats eval` again',
    });
  else checks.push({ status: 'ok', text: `${name} scored ${graded.score.toFixed(2)} in the last eval` });
  return checks;
}
