import type { SkillsOverview } from '../shared/chat-types.js';
import { ApiError, getJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import type { View } from './main.js';

/**
 * Skills: the skills and agent profiles read at start, each skill or agent skipped with its
 * sentence, and the model roles table. Read-only: a person adds skills with `macstats skills add`.
 */
export function createSkillsView(root: HTMLElement): View {
  const body = h('div', { id: 'skills-body' });
  const message = h('p', { class: 'form-message', role: 'status' });
  replaceChildren(
    root,
    h('div', { class: 'section-head' }, h('h2', {}, 'Skills and agents')),
    h(
      'p',
      { class: 'hint' },
      'Read from MACSTATS_HOME at start. Add a skill with ',
      h('code', {}, 'macstats skills add <folder>'),
      ', then restart; the assistant cannot write skills.',
    ),
    message,
    body,
  );

  function render(overview: SkillsOverview): void {
    const table = (head: string[], rows: Array<Array<string>>, id: string) =>
      h(
        'table',
        { class: 'plain', id },
        h('thead', {}, h('tr', {}, ...head.map((cell) => h('th', {}, cell)))),
        h('tbody', {}, ...rows.map((row) => h('tr', {}, ...row.map((cell) => h('td', {}, cell))))),
      );
    replaceChildren(
      body,
      h('h3', {}, 'Skills'),
      overview.skills.length === 0
        ? h('p', { class: 'hint' }, 'No skills are installed.')
        : table(
            ['name', 'description'],
            overview.skills.map((skill) => [skill.name, skill.description]),
            'skills-list',
          ),
      h('h3', {}, 'Agents'),
      overview.agents.length === 0
        ? h('p', { class: 'hint' }, 'No agents are configured.')
        : table(
            ['id', 'name', 'model', 'description'],
            overview.agents.map((agent) => [agent.id, agent.name, agent.model, agent.description]),
            'agents-list',
          ),
      overview.problems.length > 0 ? h('h3', {}, 'Skipped') : null,
      overview.problems.length > 0
        ? h(
            'ul',
            { class: 'problems', id: 'skills-problems' },
            ...overview.problems.map((problem) => h('li', {}, problem)),
          )
        : null,
      h('h3', {}, 'Model roles'),
      overview.routes === null
        ? h('p', { class: 'hint' }, 'The model server cannot be asked right now.')
        : table(
            ['role', 'model', 'why'],
            overview.routes.map((route) => [route.role, route.model ?? '—', route.problem ?? route.reason]),
            'model-roles',
          ),
    );
  }

  async function load(): Promise<void> {
    try {
      message.textContent = '';
      render(await getJson<SkillsOverview>('/api/skills'));
    } catch (failure) {
      message.textContent = failure instanceof ApiError ? failure.message : String(failure);
    }
  }
  return { show: () => void load() };
}
