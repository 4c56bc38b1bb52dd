const SECRET_KEY =
  /(token|secret|password|passwd|api_?key|_key$|^key$|auth|credential|private|cookie|session)/i;
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
 * Masks the secrets in a URL: the password of its user info and query parameters named like
 * secrets (`key`, `token`, `api_key`, ...). A value that is not a URL comes back unchanged.
 *
 * @example
 * maskUrl('https://user:pw@example.com/sse?token=abc&x=1'); // 'https://user:****@example.com/sse?token=****&x=1'
 */
export function maskUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  let masked = false;
  if (url.password) {
    url.password = '****';
    masked = true;
  }
  for (const name of [...url.searchParams.keys()]) {
    if (isSecretKey(name) || /^(key|sig|signature|code)$/i.test(name)) {
      url.searchParams.set(name, '****');
      masked = true;
    }
  }
  // Untouched URLs come back exactly as written (URL would add a trailing slash).
  return masked ? url.toString().replace(/%2A%2A%2A%2A/g, '****') : value;
}

/** Masks a config value for logs according to its key and shape. */
export function maskConfigValue(key: string, value: string): string {
  if (isSecretKey(key)) return maskSecret(value);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return maskUrl(value);
  return value.replace(
    SECRET_ASSIGNMENT,
    (_match, name: string, separator: string) => `${name}${separator}****`,
  );
}
