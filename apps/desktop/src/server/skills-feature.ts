import type { AgentProfile, RoleRoute, SkillsAndAgents } from '@macstats/skills';
import type { SkillsOverview } from '../shared/chat-types.js';
import { sendJson } from './http-helpers.js';
import type { DashboardFeature } from './start-dashboard.js';

/** How a profile's model reads in the page: its model, or its role. */
function modelOf(agent: AgentProfile): string {
  return 'name' in agent.model ? agent.model.name : `role ${agent.model.role}`;
}

/**
 * The Skills view's data: `GET /api/skills` gives the skills and agent profiles read at start
 * (name and description), one sentence per one skipped, and the model roles table. Read-only:
 * skills are added with `macstats skills add`, never by the model.
 */
export function createSkillsFeature(options: {
  found: SkillsAndAgents;
  routes: () => Promise<RoleRoute[] | null>;
}): DashboardFeature {
  return {
    routes: [
      {
        method: 'GET',
        path: /^\/api\/skills$/,
        kind: 'read',
        async handle({ response }) {
          const { skills, agents, problems } = options.found;
          const overview: SkillsOverview = {
            skills: skills.map(({ name, description }) => ({ name, description })),
            agents: agents.map((agent) => ({
              id: agent.id,
              name: agent.name,
              description: agent.description,
              model: modelOf(agent),
            })),
            problems,
            routes: await options.routes().catch(() => null),
          };
          sendJson(response, 200, overview);
        },
      },
    ],
  };
}
