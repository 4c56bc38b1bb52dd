import type { McpServerView } from '../shared/mcp-types.js';
import { getJson, sendJson } from './api.js';
import { h, replaceChildren } from './dom.js';

/**
 * The MCP servers section of Settings: each server, whether it is trusted, and the tools held
 * back because their definition changed since it was approved, with a button that accepts the
 * new definitions (after reading them in `macstats mcp trust`'s terms: what changed is named).
 */
export function createMcpServersSection(): { element: HTMLElement; load(): Promise<void> } {
  const list = h('ul', { class: 'mcp-servers', id: 'mcp-servers' });
  const message = h('p', { class: 'form-message', role: 'status' });
  const element = h('section', { class: 'settings-mcp' }, h('h2', {}, 'MCP servers'), list, message);

  function render(servers: McpServerView[]): void {
    if (servers.length === 0) {
      replaceChildren(list, h('li', {}, 'No MCP server is configured.'));
      return;
    }
    replaceChildren(
      list,
      ...servers.map((server) => {
        const trust = h('button', { type: 'button', class: 'mcp-trust' }, 'Offer the changed tools again');
        trust.addEventListener('click', async () => {
          trust.disabled = true;
          try {
            render(
              (
                await sendJson<{ servers: McpServerView[] }>(
                  `/api/mcp/${encodeURIComponent(server.name)}/trust`,
                  {},
                )
              ).servers,
            );
            message.textContent = `Accepted the current tool definitions of ${server.name}.`;
          } catch (error) {
            trust.disabled = false;
            message.textContent = (error as Error).message;
          }
        });
        return h(
          'li',
          { 'data-server': server.name },
          h('strong', {}, server.name),
          ` ${server.trusted ? 'trusted' : 'untrusted'} · ${server.status} · ${server.tools.length} tools offered`,
          server.withheld.length === 0
            ? null
            : h(
                'p',
                { class: 'mcp-withheld' },
                `Changed since you approved them, so not offered: ${server.withheld.join(', ')}. `,
                trust,
              ),
        );
      }),
    );
  }

  return {
    element,
    async load() {
      try {
        render((await getJson<{ servers: McpServerView[] }>('/api/mcp')).servers);
      } catch (error) {
        message.textContent = (error as Error).message;
      }
    },
  };
}
