/**
 * True when `name` matches one of `patterns`: an exact file name (`.config.env`) or a suffix
 * written `*.pem`. Case is ignored, since macOS file systems ignore it too by default.
 */
export function isDeniedName(name: string, patterns: readonly string[]): boolean {
  const lower = name.toLowerCase();
  return patterns.some((pattern) => {
    const wanted = pattern.toLowerCase();
    return wanted.startsWith('*') ? lower.endsWith(wanted.slice(1)) : lower === wanted;
  });
}

/** The first part of `relativePath` (`a/b/c`) that matches a denied name, if any. */
export function findDeniedPart(relativePath: string, patterns: readonly string[]): string | undefined {
  if (relativePath === '') return undefined;
  return relativePath.split('/').find((part) => isDeniedName(part, patterns));
}
