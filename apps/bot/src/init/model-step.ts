import { checkModelServer, type ModelServerCheck } from '@macstats/app-runtime';
import { DEFAULT_OLLAMA_HOST, isEmbeddingModel, sameModel } from '@macstats/core';
import { type AppConfig, paths } from '../app-config.js';
import { type EvalReport, POOR_SCORE } from '../eval/eval-report.js';
import { readEvalReport } from '../eval/save-report.js';
import { plural } from '../plural.js';
import { type InitContext, setValue, validateUrl } from './init-context.js';
import type { InitChoice } from './init-ui.js';

const RUN_EVAL = '\u0000run-eval';
const DEFAULT_OPENAI_URL = 'http://127.0.0.1:8080/v1';

type Server =
  | { provider: 'ollama'; host: string }
  | { provider: 'openai'; url: string; key: string | undefined };

/** The model server as a configuration `checkModelServer` and `macstats eval` can use. */
function configFor(base: AppConfig, server: Server, model?: string): AppConfig {
  return server.provider === 'ollama'
    ? { ...base, modelProvider: 'ollama', ollamaHost: server.host, ollamaHosts: [], ollamaModel: model }
    : {
        ...base,
        modelProvider: 'openai',
        openaiBaseUrl: server.url,
        openaiBaseUrls: [],
        openaiApiKey: server.key,
        openaiModel: model,
      };
}

/** One model's line in the list: the last eval's verdict. */
export function evalVerdict(report: EvalReport | null, model: string): string {
  const graded = report?.models.find((entry) => sameModel(entry.model, model));
  if (!graded || !report) return 'not evaluated yet';
  const verdict = graded.score < POOR_SCORE ? 'poor at tools' : graded.rank === 1 ? 'best' : 'ok';
  return `eval: ${verdict}, score ${graded.score.toFixed(2)}, #${graded.rank} of ${report.models.length}`;
}

/**
 * Where answers come from and which model: Ollama found at OLLAMA_HOST (or the default
 * address), another Ollama, or an OpenAI-compatible server; then the installed models with the
 * last eval's verdict, and the eval offered.
 */
export async function modelStep(context: InitContext): Promise<void> {
  const { ui, flags, current, config } = context;
  const probe = (server: Server) =>
    ui.spin(
      server.provider === 'ollama'
        ? `Looking for Ollama at ${server.host}`
        : `Asking ${server.url} for its models`,
      () => checkModelServer(configFor(config, server)),
    );

  let server: Server;
  let found: ModelServerCheck;
  const wantsOpenAi =
    flags.openaiUrl !== undefined ||
    (flags.ollamaHost === undefined && current['MODEL_PROVIDER'] === 'openai');
  const host = flags.ollamaHost ?? config.ollamaHost;
  found = await probe({ provider: 'ollama', host });
  if (found.reachable) ui.success(`Ollama answers at ${host} (${plural(found.models.length, 'model')})`);
  else if (!wantsOpenAi)
    ui.warn(
      `Ollama is not answering at ${host}: install it from ollama.com and run \`ollama serve\`, or pick another server.`,
    );
  const where = await ui.select(
    'Where do the answers come from?',
    [
      { value: 'ollama', label: `Ollama at ${host}`, hint: found.reachable ? 'answering' : 'not answering' },
      { value: 'other', label: 'Ollama at another address' },
      { value: 'openai', label: 'An OpenAI-compatible server (llama-server, LM Studio, vLLM)' },
    ],
    wantsOpenAi ? 'openai' : 'ollama',
  );
  if (where === 'openai') {
    const url = (
      flags.openaiUrl ??
      (await ui.text('The server API address', {
        initial: current['OPENAI_BASE_URL'] ?? DEFAULT_OPENAI_URL,
        validate: validateUrl,
      }))
    ).replace(/\/+$/, '');
    const entered =
      flags.openaiKey ??
      (await ui.secret(
        current['OPENAI_API_KEY']
          ? 'Its API key (Enter keeps the current one)'
          : 'Its API key (Enter for none)',
      ));
    server = { provider: 'openai', url, key: entered || current['OPENAI_API_KEY'] };
    found = await probe(server);
    if (!found.reachable) ui.warn(found.problem ?? `${url} is not answering.`);
    if (entered) setValue(context, 'OPENAI_API_KEY', entered);
    setValue(context, 'MODEL_PROVIDER', 'openai');
    setValue(context, 'OPENAI_BASE_URL', url);
  } else {
    let chosenHost = host;
    if (where === 'other') {
      chosenHost = (await ui.text('Ollama address', { initial: host, validate: validateUrl })).replace(
        /\/+$/,
        '',
      );
      found = await probe({ provider: 'ollama', host: chosenHost });
      if (found.reachable)
        ui.success(`Ollama answers at ${chosenHost} (${plural(found.models.length, 'model')})`);
      else
        ui.warn(
          `Ollama is not answering at ${chosenHost}; it is saved anyway, and \`macstats doctor\` checks it again.`,
        );
    }
    server = { provider: 'ollama', host: chosenHost };
    if (current['MODEL_PROVIDER'] === 'openai') setValue(context, 'MODEL_PROVIDER', undefined);
    // The default address needs no line, unless the file already names one.
    if (chosenHost !== DEFAULT_OLLAMA_HOST || current['OLLAMA_HOST'] !== undefined)
      setValue(context, 'OLLAMA_HOST', chosenHost);
  }
  const model = await pickModel(context, server, found);
  const modelKey = server.provider === 'ollama' ? 'OLLAMA_MODEL' : 'OPENAI_MODEL';
  if (model) setValue(context, modelKey, model);
}

async function pickModel(
  context: InitContext,
  server: Server,
  found: ModelServerCheck,
): Promise<string | undefined> {
  const { ui, flags, current, config } = context;
  const currentModel = current[server.provider === 'ollama' ? 'OLLAMA_MODEL' : 'OPENAI_MODEL'];
  const models = found.models.filter((name) => !isEmbeddingModel(name));
  if (models.length === 0) {
    if (found.reachable)
      ui.warn(
        server.provider === 'ollama'
          ? 'No model is installed: run `ollama pull llama3.2:3b` (or qwen2.5:7b, better at tools).'
          : 'The server lists no model.',
      );
    const typed =
      flags.model ?? (await ui.text('Model name (Enter to leave it unset)', { initial: currentModel }));
    return typed || undefined;
  }
  if (flags.model) {
    if (!models.some((name) => sameModel(name, flags.model as string)))
      ui.warn(`${flags.model} is not installed; installed: ${models.join(', ')}.`);
    return flags.model;
  }
  let report = await readEvalReport(paths(config).evalReport);
  for (;;) {
    const initial =
      [currentModel, report?.best ?? undefined].find(
        (name) => name !== undefined && models.some((have) => sameModel(have, name)),
      ) ?? (models[0] as string);
    // The verdict goes in the label: a hint shows only on the focused line.
    const choices: InitChoice<string>[] = models.map((name) => ({
      value: name,
      label: `${name}  (${evalVerdict(report, name)})`,
    }));
    if (ui.interactive && found.reachable)
      choices.push({
        value: RUN_EVAL,
        label: 'Run the eval first',
        hint: 'grades each model on six tool-calling tasks; about a minute per model',
      });
    const picked = await ui.select('Which model?', choices, initial);
    if (picked !== RUN_EVAL) return picked;
    await context.runEval(configFor(config, server));
    report = await readEvalReport(paths(config).evalReport);
  }
}
