import { maskUrl } from '@macstats/core/internal';

const SECRET_KEY =
  /(token|secret|password|passwd|api_?key|_key$|^key$|auth|credential|private|cookie|session|headers$)/i;
const SECRET_ASSIGNMENT =
  /\b([\w-]*(?:token|secret|password|passwd|api[_-]?key|auth)[\w-]*)([=:])([^\s|&]+)/gi;

/** True for a config key whose value is a secret (tokens, keys, passwords). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/**
 * Masks a secret for logs: `****` plus the last four characters when it is long enough to
 * spare them (12 or more), else `****` alone.
 *
 * @example
 * maskSecret('MTA5ODc2NTQzMjEw.Gx1y2z.abcdWXYZ'); // '****WXYZ'
 */
export function maskSecret(value: string): string {
  if (value === '') return '';
  return value.length >= 12 ? `****${value.slice(-4)}` : '****';
}

/**
 * Masks a config value for logs according to its key and shape: a secret key's value by
 * {@link maskSecret}, a URL by core's `maskUrl` (scheme and host only), and `name=value`
 * assignments named like secrets inside a command line.
 *
 * @example
 * maskConfigValue('MCP_SERVER_STDIO', 'npx|server|--api-key=abc123'); // 'npx|server|--api-key=****'
 */
export function maskConfigValue(key: string, value: string): string {
  if (isSecretKey(key)) return maskSecret(value);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return maskUrl(value);
  return value.replace(
    SECRET_ASSIGNMENT,
    (_match, name: string, separator: string) => `${name}${separator}****`,
  );
}
