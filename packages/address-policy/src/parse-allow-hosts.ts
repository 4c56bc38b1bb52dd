/**
 * Reads an allow list written as one setting, e.g. the apps' `FETCH_ALLOW_HOSTS`:
 * host names, IP addresses or CIDR ranges separated by commas or white space.
 *
 * @example
 * createFetchUrlTool({ allowHosts: parseAllowHosts('nas.local, 192.168.1.0/24') });
 */
export function parseAllowHosts(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
