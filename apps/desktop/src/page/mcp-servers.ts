import type { McpServerView } from '../shared/mcp-types.js';
import { getJson, sendJson } from './api.js';
import { h, replaceChildren } from './dom.js';
import { plural } from './format.js';
import { renderInlineMarkdown } from './markdown.js';

/**
 * The MCP servers section of Settings: each server, whether it is trusted, and the tools held
 * back because their definition changed since it was approved, with a button that accepts the
 * new definitions (after reading them in `macstats mcp trust`'s terms: what changed is named).
 */
export function createMcpServersSection(): { element: HTMLElement; load(): Promise<void> } {
  const list = h('ul', { class: 'mcp-servers', id: 'mcp-servers' });
  const problemList = h('ul', { class: 'problems', id: 'mcp-problems', hidden: true });
  const message = h('p', { class: 'form-message', role: 'status' });
  const element = h(
    'section',
    { class: 'settings-mcp' },
    h('h2', {}, 'MCP servers'),
    list,
    problemList,
    message,
  );

  /** What is wrong with mcp.json: each entry left out, as `macstats doctor` says it. */
  function renderProblems(problems: readonly string[]): void {
    replaceChildren(problemList, ...problems.map((problem) => h('li', {}, ...renderInlineMarkdown(problem))));
    problemList.hidden = problems.length === 0;
  }

  function render(servers: McpServerView[]): void {
    if (servers.length === 0) {
      const none = problemList.hidden
        ? 'No MCP server is configured.'
        : 'No MCP server can be used: see below.';
      replaceChildren(list, h('li', {}, none));
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
          ` ${server.trusted ? 'trusted' : 'untrusted'} · ${server.status} · ${plural(server.tools.length, 'tool')} offered`,
          server.canSignIn && server.status !== 'connected' ? signInButton(server) : null,
          server.signInProblem
            ? h('p', { class: 'mcp-sign-in-problem' }, ...renderInlineMarkdown(server.signInProblem))
            : null,
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

  // The MCP authorization flow: the server hands back the URL to open; the page opens it (and
  // shows it, for a blocked pop-up) and looks again every 2 s until the sign-in has ended.
  function signInButton(server: McpServerView): HTMLElement {
    const button = h(
      'button',
      { type: 'button', class: 'mcp-sign-in' },
      server.signingIn ? 'Signing in…' : 'Sign in',
    );
    button.disabled = server.signingIn;
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        const started = await sendJson<{ url?: string; status?: string }>(
          `/api/mcp/${encodeURIComponent(server.name)}/sign-in`,
          {},
        );
        if (started.url) {
          window.open(started.url, '_blank', 'noopener');
          replaceChildren(
            message,
            `Sign in to ${server.name} in the page that opened, or open `,
            h(
              'a',
              { href: started.url, target: '_blank', rel: 'noopener', class: 'mcp-sign-in-url' },
              'this link',
            ),
            '.',
          );
          watch(server.name);
        } else message.textContent = `${server.name} did not ask for sign-in.`;
      } catch (error) {
        button.disabled = false;
        message.textContent = (error as Error).message;
      }
    });
    return button;
  }

  let watching: ReturnType<typeof setInterval> | undefined;
  /** Looks again every 2 s while a sign-in waits; when it ends, the link to open gives way to how it ended. */
  function watch(name: string): void {
    if (watching) return;
    watching = setInterval(async () => {
      const servers = (await getJson<{ servers: McpServerView[] }>('/api/mcp').catch(() => undefined))
        ?.servers;
      if (!servers) return;
      render(servers);
      if (servers.every((server) => !server.signingIn)) {
        clearInterval(watching);
        watching = undefined;
        const signedIn = servers.find((server) => server.name === name);
        // A problem shows beside the server; success says so here, in place of the link.
        message.textContent =
          signedIn?.status === 'connected' && !signedIn.signInProblem ? `Signed in to ${name}.` : '';
      }
    }, 2000);
  }

  return {
    element,
    async load() {
      try {
        const answer = await getJson<{ servers: McpServerView[]; problems?: string[] }>('/api/mcp');
        renderProblems(answer.problems ?? []);
        render(answer.servers);
      } catch (error) {
        message.textContent = (error as Error).message;
      }
    },
  };
}
