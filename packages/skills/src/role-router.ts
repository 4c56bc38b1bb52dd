import type { ModelCapabilities } from '@macstats/core';
import type { ProfileModel } from './agent-directory.js';
import { SKILLS_DEFAULTS } from './defaults.js';
import type { AgentProfile } from './load-agents.js';
import { type EvalGrade, type RoleRoute, routeModelRoles } from './route-model-roles.js';
/** Options of {@link createRoleRouter}. */
export interface RoleRouterOptions {
  /** The installed models; null when the server cannot be asked. */
  listModels(): Promise<string[] | null>;
  /** What a model can do (`/api/show`); null when it cannot be read. */
  capabilities(model: string): Promise<Pick<ModelCapabilities, 'tools' | 'vision' | 'thinking'> | null>;
  /** The last eval's grades; undefined when there is none. */
  readEval(): Promise<readonly EvalGrade[] | undefined>;
  /** Clock in milliseconds. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** How long a table is kept before the models and the eval are read again. Default `SKILLS_DEFAULTS.routesTtlMs`. */
  ttlMs?: number | undefined;
}

/** The routing table of an app and each agent profile's model; see {@link createRoleRouter}. */
export interface RoleRouter {
  /** The routing table; null when the model server cannot be asked. */
  table(): Promise<RoleRoute[] | null>;
  /** A profile's model: its own, or its role's; one sentence when no installed model fills the role. */
  modelFor(profile: AgentProfile): Promise<ProfileModel>;
}

/**
 * Routes model roles to installed models (capabilities and the last `macstats eval`), reading
 * them at most once a minute, and gives each agent profile its model. A role no installed model
 * fills gives the profile one sentence naming what to pull; while the server cannot be asked, a
 * profile of a role answers with the app's model (whose failure then says why).
 *
 * @example
 * const router = createRoleRouter({ listModels, capabilities, readEval });
 * createAgentDirectory({ agent, tools, skills, profiles, modelFor: router.modelFor });
 */
export function createRoleRouter(options: RoleRouterOptions): RoleRouter {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? SKILLS_DEFAULTS.routesTtlMs;
  let cached: { routes: RoleRoute[]; at: number } | undefined;
  async function table(): Promise<RoleRoute[] | null> {
    if (cached && now() - cached.at < ttlMs) return cached.routes;
    const names = await options.listModels().catch(() => null);
    if (names === null) return null;
    const models = await Promise.all(
      names.map(async (name) => ({ name, capabilities: await options.capabilities(name).catch(() => null) })),
    );
    const routes = routeModelRoles({ models, eval: await options.readEval().catch(() => undefined) });
    cached = { routes, at: now() };
    return routes;
  }
  return {
    table,
    async modelFor(profile: AgentProfile): Promise<ProfileModel> {
      if ('name' in profile.model) return { model: profile.model.name };
      const { role } = profile.model;
      const routes = await table();
      // The server cannot be asked: the app's model answers, and its failure says why.
      if (routes === null) return { model: '' };
      const route = routes.find((entry) => entry.role === role);
      if (route?.model) return { model: route.model };
      return { problem: `The agent ${profile.id} needs the ${role} role. ${route?.problem ?? ''}`.trim() };
    },
  };
}
