import type { SkillsOverview } from '../shared/chat-types.js';
import { getJson } from './api.js';
import { h, replaceChildren } from './dom.js';

/**
 * The chat's agent picker: the dashboard's own agent, or one of the agent profiles
 * (`$MACSTATS_HOME/agents`). Hidden while there are none. `value()` is the chosen id, or
 * undefined for the dashboard's own agent.
 */
export function createAgentPicker(): { element: HTMLElement; value(): string | undefined; load(): void } {
  const select = h('select', { id: 'chat-agent', 'aria-label': 'Agent' });
  const element = h('label', { class: 'agent-picker', hidden: true }, 'Agent ', select);
  return {
    element,
    value: () => (select.value === '' ? undefined : select.value),
    load() {
      void getJson<SkillsOverview>('/api/skills')
        .then(({ agents }) => {
          const chosen = select.value;
          replaceChildren(
            select,
            h('option', { value: '' }, 'Default'),
            ...agents.map((agent) =>
              h('option', { value: agent.id, title: agent.description }, `${agent.name} (${agent.id})`),
            ),
          );
          if (agents.some((agent) => agent.id === chosen)) select.value = chosen;
          element.hidden = agents.length === 0;
        })
        .catch(() => {});
    },
  };
}
