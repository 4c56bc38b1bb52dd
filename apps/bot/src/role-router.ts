import type { ModelCapabilities } from '@macstats/core';
import {
  type AgentProfile,
  type EvalGrade,
  type ProfileModel,
  type RoleRoute,
  routeModelRoles,
} from '@macstats/skills';

/** How long the routing table is kept before the models and the eval are read again, in milliseconds. */
export const ROUTES_TTL_MS = 60_000;

/** Options of {@link createRoleRouter}. */
export interface RoleRouterOptions {
  /** The installed models; null when the server cannot be asked. */
  listModels(): Promise<string[] | null>;
  /** What a model can do (`/api/show`); null when it cannot be read. */
  capabilities(model: string): Promise<Pick<ModelCapabilities, 'tools' | 'vision' | 'thinking'> | null>;
  /** The last eval's grades; undefined when there is none. */
  readEval(): Promise<readonly EvalGrade[] | undefined>;
  now?: () => number;
}

/**
 * Routes model roles to installed models (capabilities and the last `macstats eval`), reading
 * them at most once a minute, and gives each agent profile its model.
 */
export function createRoleRouter(options: RoleRouterOptions) {
  const now = options.now ?? Date.now;
  let cached: { routes: RoleRoute[]; at: number } | undefined;
  async function table(): Promise<RoleRoute[] | null> {
    if (cached && now() - cached.at < ROUTES_TTL_MS) return cached.routes;
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
    /** The routing table; null when the model server cannot be asked. */
    table,
    /** A profile's model: its own, or its role's; one sentence when no installed model fills the role. */
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
