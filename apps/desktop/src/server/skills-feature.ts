import {
  type AgentProfile,
  createSkillPin,
  describeChanges,
  loadSkillPins,
  loadSkillsAndAgents,
  type RoleRoute,
  type SkillsAndAgents,
  skillPinsFile,
} from '@macstats/skills';
import type { SkillsOverview } from '../shared/chat-types.js';
import { HttpError, sendJson } from './http-helpers.js';
import type { DashboardFeature } from './start-dashboard.js';

/** How a profile's model reads in the page: its model, or its role. */
function modelOf(agent: AgentProfile): string {
  return 'name' in agent.model ? agent.model.name : `role ${agent.model.role}`;
}

/**
 * The Skills view's data: `GET /api/skills` gives the skills and agent profiles read at start
 * (name and description), one sentence per one skipped or withheld, the withheld skills with what
 * changed, and the model roles table. `POST /api/skills/<name>/trust` accepts a withheld skill's
 * files as they are now (what `macstats skills trust <name>` does) and offers it again. Skills
 * are added with `macstats skills add`, never by the model.
 */
export function createSkillsFeature(options: {
  found: SkillsAndAgents;
  routes: () => Promise<RoleRoute[] | null>;
  /** `MACSTATS_HOME`, where the skills and their pins are. */
  home: string;
}): DashboardFeature {
  const { found } = options;
  const overview = async (): Promise<SkillsOverview> => ({
    skills: found.skills.map(({ name, description }) => ({ name, description })),
    agents: found.agents.map((agent) => ({
      id: agent.id,
      name: agent.name,
      description: agent.description,
      model: modelOf(agent),
    })),
    problems: found.problems,
    withheld: found.withheld.map((skill) => ({ name: skill.name, changes: describeChanges(skill.changes) })),
    routes: await options.routes().catch(() => null),
  });
  return {
    routes: [
      {
        method: 'GET',
        path: /^\/api\/skills$/,
        kind: 'read',
        async handle({ response }) {
          sendJson(response, 200, await overview());
        },
      },
      {
        method: 'POST',
        path: /^\/api\/skills\/([a-z0-9-]+)\/trust$/,
        kind: 'write',
        async handle({ response, params }) {
          const name = params[0] ?? '';
          const withheld = found.withheld.find((skill) => skill.name === name);
          if (!withheld) throw new HttpError(404, `No skill named "${name}" is withheld.`);
          const pins = await loadSkillPins(skillPinsFile(options.home));
          const pin = pins.get(name);
          await pins.set(name, await createSkillPin(withheld.folder, pin?.source));
          // Read again in place: the agents hold these same arrays, so the skill is offered at once.
          const fresh = await loadSkillsAndAgents(options.home);
          found.skills.splice(0, found.skills.length, ...fresh.skills);
          found.problems.splice(0, found.problems.length, ...fresh.problems);
          found.withheld.splice(0, found.withheld.length, ...fresh.withheld);
          sendJson(response, 200, await overview());
        },
      },
    ],
  };
}
