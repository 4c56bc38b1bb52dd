import { coreError, MacstatsError } from '../errors.js';

/**
 * The `DEPENDENCY_MISSING` error for a failure to load or resolve one of `packages`, or
 * `undefined` when `error` is something else (a broken install keeps its own error). Its one
 * sentence says what needs the package and the command that adds all of `packages`.
 *
 * @example
 * try { import.meta.resolve('playwright-core') } catch (error) { throw dependencyMissing(error, 'playwright-core', 'The browser tool') ?? error }
 */
export function dependencyMissing(
  error: unknown,
  packages: string | readonly string[],
  neededBy: string,
): MacstatsError | undefined {
  const names = typeof packages === 'string' ? [packages] : packages;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const message = error instanceof Error ? error.message : '';
  const missing = names.find((name) => message.includes(`'${name}'`) || message.includes(`'${name}/`));
  if (!missing) return undefined;
  return coreError(
    'DEPENDENCY_MISSING',
    `${neededBy} needs the ${missing} package, which is not installed: run \`npm install ${names.join(' ')}\` where macstats is installed (with -g for a global install).`,
    { cause: error },
  );
}

/**
 * Loads a dependency that only some configurations use (declared as an optional peer), on first
 * use. `load` must be the caller's own `() => import('name')`: the name resolves from the package
 * that declares it, not from core. `packages` names what `load` imports (all of it is named in the
 * install command). When one of them is not installed this throws {@link dependencyMissing}'s
 * `DEPENDENCY_MISSING` error; any other failure while loading is thrown as it is.
 *
 * @example
 * const { chromium } = await importOptional('playwright-core', 'The browser tool', () => import('playwright-core'));
 */
export async function importOptional<T>(
  packages: string | readonly string[],
  neededBy: string,
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw dependencyMissing(error, packages, neededBy) ?? error;
  }
}

/** Whether `error` says an optional dependency is not installed (see {@link dependencyMissing}). */
export function isDependencyMissing(error: unknown): error is MacstatsError {
  return MacstatsError.isInstance(error) && error.code === 'DEPENDENCY_MISSING';
}
