/**
 * Removes secrets from text before it is written anywhere: the exact secret values the app
 * knows (tokens, API keys), the path and query of MCP URLs (only the host is kept), and
 * anything shaped like a Discord bot token.
 */
export function createSecretScrubber(
  secrets: Array<string | undefined>,
  urls: Array<string | undefined> = [],
) {
  const replacements: Array<[string, string]> = [];
  for (const secret of secrets) {
    if (secret && secret.length >= 4) replacements.push([secret, mask(secret)]);
  }
  for (const url of urls) {
    if (!url) continue;
    try {
      const parsed = new URL(url);
      const shown = `${parsed.protocol}//${parsed.host}/…`;
      if (url !== shown) replacements.push([url, shown]);
      if (parsed.password) replacements.push([parsed.password, '***']);
    } catch {
      replacements.push([url, '***']);
    }
  }
  // Longest first, so a URL that contains a key is replaced as a whole.
  replacements.sort((a, b) => b[0].length - a[0].length);
  const discordTokenShape = /[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}/g;
  return (text: string): string => {
    let result = text;
    for (const [secret, shown] of replacements) {
      if (result.includes(secret)) result = result.split(secret).join(shown);
      const escaped = JSON.stringify(secret).slice(1, -1);
      if (escaped !== secret && result.includes(escaped)) result = result.split(escaped).join(shown);
    }
    return result.replace(discordTokenShape, '***');
  };
}

function mask(secret: string): string {
  return secret.length <= 8 ? '***' : `${secret.slice(0, 2)}***${secret.slice(-2)}`;
}
