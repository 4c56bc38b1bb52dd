import type { SourceFile } from './tool-lists.js';

/**
 * What only the composition root (`@macstats/app-runtime`'s `createAppRuntime`) may do in the
 * apps: make an agent, its directory, its scheduler or task runner, pick a use's tools, or put a
 * wrapper (metrics, the token budget, link choices, the RUN_JS stand-in) around an agent. Each
 * entry: the package, the names an app must not import from it.
 */
export const ROOT_ONLY_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  '@macstats/core': ['createAgent', 'createDailyTokenBudget'],
  '@macstats/skills': ['createAgentDirectory'],
  '@macstats/scheduler': ['createScheduler', 'createTaskExecutor'],
  '@macstats/tasks': ['createTaskRunner', 'createTaskTool'],
  '@macstats/app-runtime': ['offeredTo', 'withTaskStarts', 'wrapAgent', 'selectServedTools'],
  '@macstats/app-config': ['appLinkChoices'],
};

/** Calls and options that wrap an agent or set its containment: the runtime's alone. */
const ROOT_ONLY_CALLS: ReadonlyArray<[RegExp, string]> = [
  [/\.guard\(/, 'puts the token budget around an agent (.guard)'],
  [/\.observeAgent\(/, 'counts an agent itself (.observeAgent)'],
  [/\bunavailableTools\s*:/, 'sets the RUN_JS stand-in itself (unavailableTools)'],
  [/\blinkChoices\s*:/, 'sets link choices itself (linkChoices)'],
];

/**
 * Files allowed to, and why: each is a tool of measurement or a test double, not a surface.
 * `macstats eval` scores models on scripted scenarios, each with its own tools and no memory.
 */
export const ROOT_ONLY_ALLOWED: Readonly<Record<string, string>> = {
  'apps/bot/src/eval/run-eval.ts': 'macstats eval scores a model on scripted scenarios, not a use',
};

/** One sentence per place in `files` that does the composition root's work itself. */
export function findRootBypasses(files: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  const imports = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g;
  for (const { path, text } of files) {
    if (ROOT_ONLY_ALLOWED[path]) continue;
    for (const match of text.matchAll(imports)) {
      const banned = ROOT_ONLY_IMPORTS[match[2] as string] ?? [];
      const names = (match[1] as string).split(',').map(
        (part) =>
          part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0],
      );
      for (const name of names)
        if (name && banned.includes(name))
          problems.push(
            `${path} imports ${name} from ${match[2]}; ask the runtime (createAppRuntime) instead`,
          );
    }
    for (const [pattern, what] of ROOT_ONLY_CALLS)
      if (pattern.test(text)) problems.push(`${path} ${what}; the runtime's wrappers do that`);
  }
  return problems;
}

/**
 * What makes a chat model or asks a model server: the root's model side alone
 * (`@macstats/app-runtime`'s `checkModelServer`, `checkModelServerAt`, `createChatModel`,
 * `createModelSide`). Each entry: the package, the names an app must not import from it.
 */
export const MODEL_SIDE_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  '@macstats/core': ['createOllamaModel', 'createOllamaPoolMember', 'createModelPool', 'checkOllama'],
};

/** Packages an app must not import at all: the model clients and the OpenAI-compatible adapter. */
export const MODEL_SIDE_PACKAGES: readonly string[] = ['@macstats/model-openai', 'ollama', 'openai'];

/** Calls that build a model or a pool, or ask an OpenAI-compatible server, however the function was imported. */
const MODEL_SIDE_CALLS =
  /\b(createOllamaModel|createOpenAiModel|createModelPool|createOllamaPoolMember|createOpenAiPoolMember|checkOpenAi)\(/g;

/** One sentence per place in `files` that builds a chat model or asks a model server itself. */
export function findModelBuilders(files: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  const imports = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g;
  const fromPackage = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'([^']+)'/g;
  const ask = "; ask the root's model side (@macstats/app-runtime) instead";
  for (const { path, text } of files) {
    for (const match of text.matchAll(imports)) {
      const banned = MODEL_SIDE_IMPORTS[match[2] as string] ?? [];
      for (const part of (match[1] as string).split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0];
        if (name && banned.includes(name)) problems.push(`${path} imports ${name} from ${match[2]}${ask}`);
      }
    }
    for (const match of text.matchAll(fromPackage))
      if (MODEL_SIDE_PACKAGES.includes(match[1] as string))
        problems.push(`${path} imports ${match[1]}${ask}`);
    for (const match of text.matchAll(MODEL_SIDE_CALLS))
      problems.push(
        `${path} ${match[1]?.startsWith('check') ? 'asks a model server' : 'builds a model'} itself (${match[1]})${ask}`,
      );
  }
  return problems;
}

/** The tool packages: only the composition root depends on them, never an app. */
const TOOL_PACKAGE = /^@macstats\/tools-[a-z0-9-]+$/;

/**
 * One sentence per place in `files` that imports a tool package (`@macstats/tools-*`) itself: an
 * import of values or types, a re-export, a bare or dynamic import, a `require`. The apps ask the
 * composition root for what the tools do (MCP trust and checks, BROWSER's setup, the notes), and
 * name the few types they hold through its re-exports; no file is exempt.
 */
export function findToolPackageImports(files: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  const specifier =
    /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"](@macstats\/tools-[a-z0-9-]+)(?:\/[^'"]*)?['"]/g;
  for (const { path, text } of files)
    for (const match of text.matchAll(specifier))
      problems.push(`${path} imports ${match[1]}; ask the composition root (@macstats/app-runtime) instead`);
  return problems;
}

/** Where a package.json names the packages it depends on. */
const DEPENDENCY_KINDS = [
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'optionalDependencies',
] as const;

/** An app's package.json, by its path from the repository's root. */
export interface AppManifest {
  path: string;
  manifest: Partial<Record<(typeof DEPENDENCY_KINDS)[number], Record<string, string>>>;
}

/** One sentence per tool package an app's manifest lists, in any kind of dependency. */
export function findToolPackageDependencies(manifests: readonly AppManifest[]): string[] {
  const problems: string[] = [];
  for (const { path, manifest } of manifests)
    for (const kind of DEPENDENCY_KINDS)
      for (const name of Object.keys(manifest[kind] ?? {}))
        if (TOOL_PACKAGE.test(name))
          problems.push(
            `${path} lists ${name} in ${kind}; the apps depend on @macstats/app-runtime, which has it`,
          );
  return problems;
}
