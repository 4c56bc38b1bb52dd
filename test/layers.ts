import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A workspace package as the layer rule sees it. */
export interface WorkspacePackage {
  name: string;
  folder: string;
  dependencies: string[];
  devDependencies: string[];
  /** Internal package names imported from its source files. */
  imports: string[];
  /** Not published (`"private": true`). */
  private?: boolean;
  /** Its source imports `@macstats/core/internal` (helpers with no semver promise). */
  importsCoreInternal?: boolean;
  /** The range its `dependencies` give each internal package (`workspace:^`, `workspace:*`). */
  ranges?: Record<string, string>;
}

/** The layer of every package; a package may depend only on lower layers (and apps on anything). */
export function layerOf(name: string): number {
  if (name === '@macstats/testing') return 0;
  // The local servers' Host, Origin and token checks: on nothing internal, beside core.
  if (name === '@macstats/core' || name === '@macstats/loopback-guard') return 1;
  // Small helpers several tool packages share (the address policy): on core, below the tools.
  if (name === '@macstats/address-policy') return 1.5;
  if (
    /^@macstats\/(tools-[a-z-]+|model-[a-z-]+|voice|scheduler|metrics|discord|app-config|skills|tasks)$/.test(
      name,
    )
  )
    return 2;
  // Packages that implement or count the seams of layer 2 (shared state on PostgreSQL; tracing
  // and `/metrics`): on the libraries, never on each other.
  if (/^@macstats\/(store-postgres|observability)$/.test(name)) return 2.5;
  // The composition root: builds every tool and wrapper, and only the apps ask it.
  if (name === '@macstats/app-runtime') return 2.75;
  return 3; // apps and examples
}

/** Returns one sentence per broken rule; empty when the workspace keeps the layers. */
export function findLayerViolations(packages: WorkspacePackage[]): string[] {
  const problems: string[] = [];
  const internal = new Set(packages.map((pkg) => pkg.name));
  for (const pkg of packages) {
    const layer = layerOf(pkg.name);
    const runtime = new Set([...pkg.dependencies, ...pkg.imports].filter((name) => internal.has(name)));
    for (const dependency of runtime) {
      if (dependency === pkg.name) continue;
      const target = layerOf(dependency);
      if (layer === 0) problems.push(`${pkg.name} must stay standalone but uses ${dependency}`);
      else if (dependency === '@macstats/testing' && layer < 3 && !pkg.devDependencies.includes(dependency))
        problems.push(`${pkg.name} uses @macstats/testing outside its tests`);
      else if (layer < 3 && target >= layer && dependency !== '@macstats/testing')
        problems.push(`${pkg.name} (layer ${layer}) must not depend on ${dependency} (layer ${target})`);
    }
    // A published package is installed from the registry, where a private one does not exist:
    // it may use one only bundled in (a devDependency), never as a dependency.
    if (!pkg.private) {
      for (const dependency of pkg.dependencies) {
        if (packages.find((other) => other.name === dependency)?.private)
          problems.push(`${pkg.name} is published but depends on the private ${dependency}`);
      }
    }
    // `./internal` carries no semver promise: a package that uses it is published with the exact
    // core it was built with (`workspace:*` becomes that version), never a range a newer core fits.
    const coreRange = pkg.ranges?.['@macstats/core'];
    if (pkg.importsCoreInternal && coreRange !== undefined && coreRange !== 'workspace:*')
      problems.push(
        `${pkg.name} imports @macstats/core/internal but depends on core as "${coreRange}" (use "workspace:*")`,
      );
    for (const imported of pkg.imports) {
      if (
        internal.has(imported) &&
        imported !== pkg.name &&
        !pkg.dependencies.includes(imported) &&
        !pkg.devDependencies.includes(imported)
      )
        problems.push(`${pkg.name} imports ${imported} without declaring it in package.json`);
    }
  }
  return problems;
}

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !/\.test\./.test(entry.name)) files.push(path);
    }
  };
  walk(join(folder, 'src'));
  return files;
}

/** Reads every workspace package under `packages/`, `apps/` and `examples/`. */
export function readWorkspace(root: string): WorkspacePackage[] {
  const packages: WorkspacePackage[] = [];
  for (const group of ['packages', 'apps', 'examples']) {
    let folders: string[] = [];
    try {
      folders = readdirSync(join(root, group));
    } catch {
      continue;
    }
    for (const name of folders) {
      const folder = join(root, group, name);
      let manifest: {
        name: string;
        private?: boolean;
        dependencies?: Record<string, string>;
        devDependencies?: object;
      };
      try {
        manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      const imports = new Set<string>();
      let importsCoreInternal = false;
      for (const file of sourceFiles(folder)) {
        const text = readFileSync(file, 'utf8');
        if (/['"]@macstats\/core\/internal['"]/.test(text)) importsCoreInternal = true;
        for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](@macstats\/[a-z0-9-]+)/g))
          imports.add(match[1]!);
      }
      packages.push({
        name: manifest.name,
        folder,
        dependencies: Object.keys(manifest.dependencies ?? {}),
        devDependencies: Object.keys(manifest.devDependencies ?? {}),
        imports: [...imports],
        private: manifest.private === true,
        importsCoreInternal,
        ranges: manifest.dependencies ?? {},
      });
    }
  }
  return packages;
}
