import type { SkillsOverview } from '../shared/chat-types.js';
import { ApiError, getJson, sendJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import type { View } from './main.js';
import { renderInlineMarkdown } from './markdown.js';

/** A number in a sentence shown with at most two decimals (`5.205568500000027 ms` reads `5.21 ms`). */
export function roundNumbers(text: string): string {
  return text.replace(/\d+\.\d{3,}/g, (number) => String(Number(Number(number).toFixed(2))));
}

/**
 * Skills: the skills and agent profiles read at start, each skill or agent skipped with its
 * sentence, the skills withheld because their files changed (with a button that accepts them, as
 * `macstats skills trust` does), and the model roles table. A person adds skills with
 * `macstats skills add`.
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
      h('code', {}, 'macstats skills add <folder | git URL | owner/repo>'),
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
        h(
          'tbody',
          {},
          ...rows.map((row) => h('tr', {}, ...row.map((cell) => h('td', {}, ...renderInlineMarkdown(cell))))),
        ),
      );
    const trustButton = (name: string) => {
      const button = h(
        'button',
        { type: 'button', class: 'skill-trust', 'data-skill': name },
        'Accept the change',
      );
      button.addEventListener('click', async () => {
        button.disabled = true;
        try {
          render(await sendJson<SkillsOverview>(`/api/skills/${encodeURIComponent(name)}/trust`, {}));
          message.textContent = `Accepted the skill ${name} as it is now; it is offered again.`;
        } catch (error) {
          button.disabled = false;
          message.textContent = (error as Error).message;
        }
      });
      return button;
    };
    replaceChildren(
      body,
      h('h3', {}, 'Skills'),
      overview.skills.length === 0
        ? h(
            'p',
            { class: 'hint' },
            overview.withheld.length > 0
              ? 'No skills are offered: the installed ones changed since you accepted them (below).'
              : 'No skills are installed.',
          )
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
      overview.withheld.length > 0 ? h('h3', {}, 'Changed since you accepted them, so not offered') : null,
      overview.withheld.length > 0
        ? h(
            'ul',
            { class: 'problems', id: 'skills-withheld' },
            ...overview.withheld.map((skill) =>
              h(
                'li',
                { 'data-skill': skill.name },
                h('strong', {}, skill.name),
                `: ${skill.changes}. `,
                trustButton(skill.name),
              ),
            ),
          )
        : null,
      overview.problems.length > 0 ? h('h3', {}, 'Skipped, withheld or warned') : null,
      overview.problems.length > 0
        ? h(
            'ul',
            { class: 'problems', id: 'skills-problems' },
            ...overview.problems.map((problem) => h('li', {}, ...renderInlineMarkdown(problem))),
          )
        : null,
      h('h3', {}, 'Model roles'),
      overview.routes === null
        ? h('p', { class: 'hint' }, 'The model server cannot be asked right now.')
        : table(
            ['role', 'model', 'why'],
            overview.routes.map((route) => [
              route.role,
              route.model ?? '—',
              roundNumbers(route.problem ?? route.reason),
            ]),
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
