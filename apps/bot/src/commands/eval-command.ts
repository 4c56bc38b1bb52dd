import { checkModelServer, createChatModel } from '@macstats/app-runtime';
import { isEmbeddingModel, modelNotInstalled, sameModel } from '@macstats/core';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { type EvalReport, formatReport, rankModels } from '../eval/eval-report.js';
import { EVAL_SCENARIOS } from '../eval/eval-scenarios.js';
import { evaluateModel } from '../eval/run-eval.js';
import { saveEvalReport } from '../eval/save-report.js';

/** Options of `macstats eval`. */
export interface EvalOptions {
  /** Only these models (`--models a,b`); default every installed chat model. */
  models?: string[];
  /** Print the report as one JSON document on standard output (progress on standard error). */
  json?: boolean;
  signal: AbortSignal;
}

/**
 * `macstats eval`: runs the fixed scenario set through the real agent on each model, prints a
 * table (or `--json`), saves the report to `$MACSTATS_HOME/eval.json`. Exit 1 when the server is
 * down or a model asked for is not there.
 */
export async function evalCommand(config: AppConfig, io: CommandIo, options: EvalOptions): Promise<number> {
  const server = await checkModelServer(config, { signal: options.signal });
  if (!server.reachable) {
    io.err(server.problem ?? `The model server at ${server.url} is not reachable.`);
    return EXIT.failed;
  }
  const installed = server.models.filter((name) => !isEmbeddingModel(name));
  const wanted = options.models && options.models.length > 0 ? options.models : installed;
  const missing = wanted.filter((name) => !installed.some((have) => sameModel(have, name)));
  if (missing.length > 0) {
    for (const name of missing) io.err(modelNotInstalled(name, installed));
    return EXIT.failed;
  }
  if (wanted.length === 0) {
    io.err(server.problem ?? 'No chat model is installed to evaluate.');
    return EXIT.failed;
  }
  const graded = [];
  for (const name of wanted) {
    io.err(`Evaluating ${name} on ${EVAL_SCENARIOS.length} scenarios…`);
    graded.push(
      await evaluateModel(createChatModel(config, name), {
        logger: io.logger,
        signal: options.signal,
        onProgress: (line) => io.err(`  ${line}`),
      }),
    );
  }
  const models = rankModels(graded);
  const report: EvalReport = {
    version: 1,
    createdAt: new Date().toISOString(),
    provider: config.modelProvider,
    server: server.url,
    scenarios: EVAL_SCENARIOS.map(({ id, description }) => ({ id, description })),
    models,
    best: models[0]?.model ?? null,
  };
  const file = paths(config).evalReport;
  await saveEvalReport(file, report);
  if (options.json) io.out(JSON.stringify(report, null, 2));
  else {
    for (const line of formatReport(report)) io.out(line);
    io.out(`Saved to ${file}.`);
  }
  return EXIT.ok;
}
