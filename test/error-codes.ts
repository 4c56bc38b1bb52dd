import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every `.ts` source file (not tests) under a folder. */
function sources(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...sources(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** A package (or app) with the error codes its source throws. */
export interface ErrorOwner {
  folder: string;
  readme: string;
  /** Code → the files that throw it. */
  thrown: Map<string, string[]>;
}

// A package's maker `fetchError('CODE'` (see core's `errorFactory`), a subclass's `super('CODE'`,
// and `new MacstatsError('CODE'` where one is still written.
const THROWN =
  /(?:new MacstatsError(?:<[^>]*>)?|super|\b[a-z][A-Za-z]*Error|\bfail)\(\s*'([A-Z][A-Z0-9_]+)'/g;

/** The packages and apps of the workspace that throw `MacstatsError`s, with their codes. */
export function errorOwners(root: string): ErrorOwner[] {
  const owners: ErrorOwner[] = [];
  for (const folder of sourceFolders(root)) {
    const thrown = new Map<string, string[]>();
    for (const file of sources(join(root, folder, 'src'))) {
      // Comments are left out: a TSDoc example names codes it does not throw.
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
      for (const match of text.matchAll(THROWN)) {
        const code = match[1] as string;
        thrown.set(code, [...(thrown.get(code) ?? []), relative(root, file)]);
      }
    }
    if (thrown.size > 0) owners.push({ folder, readme: join(root, folder, 'README.md'), thrown });
  }
  return owners;
}

/** Codes a package throws that its README does not name (as `` `CODE` ``). */
export function undocumented(owner: ErrorOwner): string[] {
  const readme = statSync(owner.readme, { throwIfNoEntry: false }) ? readFileSync(owner.readme, 'utf8') : '';
  return [...owner.thrown.keys()].filter((code) => !readme.includes(`\`${code}\``)).sort();
}

// A comparison with a code: `code === 'X'`, `code !== 'X'`, `case 'X':`.
const MATCHED = /(?:code\s*[!=]==\s*|case\s+)'([A-Z][A-Z0-9_]+)'/g;
// `code.startsWith('OLLAMA_')`, `code.endsWith('_UNSUPPORTED')`: a family of codes by spelling.
const MATCHED_PART = /\.(startsWith|endsWith)\(\s*'([A-Z][A-Z0-9_]*)'\s*\)/g;

/** Places where a package's source compares an error code another package throws. */
export function matchedElsewhere(root: string, owners: ErrorOwner[]): string[] {
  const ownerOf = new Map<string, Set<string>>();
  for (const owner of owners)
    for (const code of owner.thrown.keys())
      ownerOf.set(code, (ownerOf.get(code) ?? new Set()).add(owner.folder));
  const found: string[] = [];
  for (const folder of sourceFolders(root)) {
    for (const file of sources(join(root, folder, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(MATCHED)) {
        const code = match[1] as string;
        const owning = ownerOf.get(code);
        if (owning && !owning.has(folder))
          found.push(`${relative(root, file)} matches ${code} (thrown in ${[...owning].join(', ')})`);
      }
      for (const match of readFileSync(file, 'utf8').matchAll(MATCHED_PART)) {
        const [, how, part] = match as unknown as [string, string, string];
        const elsewhere = [...ownerOf].filter(
          ([code, owning]) =>
            (how === 'startsWith' ? code.startsWith(part) : code.endsWith(part)) && !owning.has(folder),
        );
        if (elsewhere.length > 0)
          found.push(
            `${relative(root, file)} matches ${how} ${part} (${elsewhere.map(([code]) => code).join(', ')})`,
          );
      }
    }
  }
  return found.sort();
}

/** Every package and app folder with a `src`, relative to the root. */
function sourceFolders(root: string): string[] {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => join(group, name))
      .filter((folder) => statSync(join(root, folder, 'src'), { throwIfNoEntry: false })?.isDirectory()),
  );
}

// `export type SomethingErrorCode = … | 'CODE' | …;`
const UNION = /export type \w*ErrorCode\s*=([^;]+);/g;

/** The codes a package's exported `*ErrorCode` types name (all of them together). */
export function declaredCodes(root: string, owner: ErrorOwner): Set<string> {
  const codes = new Set<string>();
  for (const file of sources(join(root, owner.folder, 'src')))
    for (const union of readFileSync(file, 'utf8').matchAll(UNION))
      for (const literal of (union[1] as string).matchAll(/'([A-Z][A-Z0-9_]+)'/g))
        codes.add(literal[1] as string);
  return codes;
}

/**
 * Places outside core's `errors.ts` that construct a `MacstatsError` themselves instead of through
 * their package's maker (the compiler then cannot check the code).
 */
export function constructedDirectly(root: string): string[] {
  const found: string[] = [];
  for (const folder of sourceFolders(root))
    for (const file of sources(join(root, folder, 'src'))) {
      const path = relative(root, file);
      if (path === join('packages', 'core', 'src', 'errors.ts')) continue;
      const count = [...readFileSync(file, 'utf8').matchAll(/new MacstatsError\b/g)].length;
      if (count > 0) found.push(`${path} (${count})`);
    }
  return found.sort();
}
