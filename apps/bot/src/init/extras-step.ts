import { maskSecret } from '@macstats/app-config';
import { type InitContext, setValue, validateUrl } from './init-context.js';

/** Web search, optional: a Brave Search key, or a SearXNG instance (which wins when both are set). */
export async function searchStep(context: InitContext): Promise<void> {
  const { ui, flags, current } = context;
  const now = current['SEARXNG_URL'] ? 'searxng' : current['BRAVE_API_KEY'] ? 'brave' : 'none';
  const kind = flags.searxngUrl
    ? 'searxng'
    : flags.braveKey
      ? 'brave'
      : await ui.select(
          'Web search (optional)',
          [
            { value: 'brave', label: 'Brave Search', hint: 'an API key from api-dashboard.search.brave.com' },
            { value: 'searxng', label: 'SearXNG', hint: 'your own instance, no key' },
            { value: 'none', label: 'None' },
          ],
          now,
        );
  if (kind === 'none') {
    if (ui.interactive) {
      setValue(context, 'BRAVE_API_KEY', undefined);
      setValue(context, 'SEARXNG_URL', undefined);
    }
    return;
  }
  if (kind === 'brave') {
    const had = current['BRAVE_API_KEY'];
    const key =
      flags.braveKey ??
      (await ui.secret(
        had ? `Brave Search API key (Enter keeps ${maskSecret(had)})` : 'Brave Search API key',
        had ? {} : { validate: (value) => (value.trim() ? undefined : 'Paste the key') },
      ));
    if (key) setValue(context, 'BRAVE_API_KEY', key);
    // SEARXNG_URL would win over the key.
    setValue(context, 'SEARXNG_URL', undefined);
    return;
  }
  const url =
    flags.searxngUrl ??
    (await ui.text('SearXNG address (with the json format on)', {
      initial: current['SEARXNG_URL'] ?? 'http://127.0.0.1:8888',
      validate: validateUrl,
    }));
  setValue(context, 'SEARXNG_URL', url.replace(/\/+$/, ''));
}

/** `npx -y pkg stdio` as MCP_SERVER_STDIO's `npx|-y|pkg|stdio`; a line already in that form stays. */
export function toStdioSetting(command: string): string {
  const trimmed = command.trim();
  return trimmed.includes('|') ? trimmed : trimmed.split(/\s+/).join('|');
}

/** One MCP server, optional: the command that starts it, or its URL (more go in mcp.json). */
export async function mcpStep(context: InitContext): Promise<void> {
  const { ui, flags, current } = context;
  const stdio = current['MCP_SERVER_STDIO'];
  const url = current['MCP_SERVER_URL'];
  const given = flags.mcp?.trim();
  const kind = given
    ? validateUrl(given) === undefined
      ? 'url'
      : 'stdio'
    : await ui.select(
        'An MCP server (optional; more in $MACSTATS_HOME/mcp.json)',
        [
          ...(stdio || url
            ? [
                {
                  value: 'keep' as const,
                  label: 'Keep the current one',
                  hint: (stdio ?? '').replaceAll('|', ' ') || url,
                },
              ]
            : []),
          { value: 'stdio' as const, label: 'A command that starts it', hint: 'stdio' },
          { value: 'url' as const, label: 'Its URL', hint: 'SSE or Streamable HTTP' },
          { value: 'none' as const, label: 'None' },
        ],
        stdio || url ? 'keep' : 'none',
      );
  if (kind === 'keep') return;
  if (kind === 'none') {
    if (ui.interactive) {
      setValue(context, 'MCP_SERVER_STDIO', undefined);
      setValue(context, 'MCP_SERVER_URL', undefined);
    }
    return;
  }
  if (kind === 'url') {
    const value = given ?? (await ui.text('The MCP server URL', { initial: url, validate: validateUrl }));
    setValue(context, 'MCP_SERVER_URL', value);
    setValue(context, 'MCP_SERVER_STDIO', undefined);
    return;
  }
  const command =
    given ??
    (await ui.text('The command that starts it', {
      initial: stdio?.replaceAll('|', ' '),
      placeholder: 'npx -y @modelcontextprotocol/server-everything stdio',
      validate: (value) => (value.trim() ? undefined : 'A command, e.g. npx -y <package>'),
    }));
  setValue(context, 'MCP_SERVER_STDIO', toStdioSetting(command));
  setValue(context, 'MCP_SERVER_URL', undefined);
}
