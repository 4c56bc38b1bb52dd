import { checkModelServer, createChatModel } from '@macstats/app-runtime';
import { createRoleRouter, loadSkillsAndAgents, MODEL_ROLES } from '@macstats/skills';
import { type AppConfig, paths } from '../app-config.js';
import { readEvalReport } from '../eval/save-report.js';
import { checkConfiguredAgents } from './configured-models-check.js';
import type { Check } from './doctor-checks.js';

/**
 * `doctor`'s lines for skills and agents: what is installed, one warning per skill or agent
 * skipped (with its sentence), and the model roles routing table (a role an agent needs that no
 * model fills is a warning naming what to pull).
 */
export async function checkSkillsAndAgents(config: AppConfig): Promise<Check[]> {
  const found = await loadSkillsAndAgents(config.home);
  const checks: Check[] = [];
  const where = paths(config);
  checks.push(
    found.skills.length === 0
      ? found.withheld.length > 0
        ? {
            status: 'warn',
            text: `skills: none offered in ${where.skills}, the installed ones withheld (below)`,
          }
        : { status: 'skip', text: `skills: none in ${where.skills}` }
      : { status: 'ok', text: `skills: ${found.skills.map((skill) => skill.name).join(', ')}` },
  );
  for (const problem of found.problems) checks.push({ status: 'warn', text: problem });
  checks.push(
    ...(await checkConfiguredAgents(
      config,
      found.agents.map((agent) => agent.id),
    )),
  );
  if (found.agents.length === 0) {
    checks.push({ status: 'skip', text: `agents: none in ${where.agents}` });
    return checks;
  }
  const server = await checkModelServer(config, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
  const model = createChatModel(config, server?.model ?? 'llama3.2:3b');
  const router = createRoleRouter({
    listModels: async () => (server?.reachable ? server.models : null),
    capabilities: (name) => model.capabilities({ model: name, signal: AbortSignal.timeout(5000) }),
    readEval: async () => (await readEvalReport(where.evalReport))?.models,
  });
  const routes = await router.table();
  const needed = new Set(found.agents.flatMap((agent) => ('role' in agent.model ? [agent.model.role] : [])));
  for (const agent of found.agents) {
    const chosen = await router.modelFor(agent);
    if ('problem' in chosen) checks.push({ status: 'warn', text: chosen.problem });
    else {
      const how =
        'role' in agent.model
          ? `role ${agent.model.role} → ${chosen.model || 'the default model'}`
          : chosen.model;
      checks.push({ status: 'ok', text: `agent ${agent.id}: ${agent.description.slice(0, 60)} (${how})` });
    }
  }
  if (routes === null) {
    checks.push({
      status: 'skip',
      text: 'model roles: the model server cannot be asked, so no routing table',
    });
    return checks;
  }
  for (const role of MODEL_ROLES) {
    const route = routes.find((entry) => entry.role === role);
    if (!route) continue;
    if (route.model) checks.push({ status: 'ok', text: `role ${role} → ${route.model} (${route.reason})` });
    else
      checks.push({
        status: needed.has(role) ? 'warn' : 'skip',
        text: route.problem ?? `role ${role}: no model`,
      });
  }
  return checks;
}
