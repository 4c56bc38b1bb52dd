import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

/**
 * The packages the CLI does not bundle: the optional peers its libraries load only when a user
 * installed them (`importOptional`), and `@opentelemetry/api`, which must be the one copy an
 * installed OpenTelemetry SDK registers with.
 */
export async function externalPackages(workspace: string): Promise<string[]> {
  const names = new Set(['@opentelemetry/api']);
  for (const folder of await readdir(join(workspace, 'packages'))) {
    const manifest = JSON.parse(
      await readFile(join(workspace, 'packages', folder, 'package.json'), 'utf8').catch(() => '{}'),
    ) as { name?: string; peerDependencies?: Record<string, string> };
    if (manifest.name === '@macstats/testing') continue;
    for (const name of Object.keys(manifest.peerDependencies ?? {})) names.add(name);
  }
  return [...names].sort();
}

/** The file name (under `dist/vendor/`, without `.cjs`) a lazily required package is built to. */
const vendorName = (specifier: string) => specifier.replace(/^@/, '').replace(/\//g, '__');

/**
 * Our libraries load a heavy dependency on first use with `createRequire(import.meta.url)`, so a
 * process that never needs it never pays for it (linkedom, prom-client, cron-parser, the MCP
 * SDK's ajv). Bundled inline, such a package would be parsed with the chunk that requires it,
 * about 5 MB resident for linkedom alone; left as it is, it would look for a package the CLI
 * does not install. So each one is built apart, as `dist/vendor/<name>.cjs`, and the call asks
 * for `#vendor/<name>`, which the CLI's `package.json` `imports` map resolves from any file of
 * the package. `vendored` collects what was found: specifier -> the file that required it.
 */
export function vendorLazyRequires(vendored: Map<string, string>): Plugin {
  return {
    name: 'vendor-lazy-requires',
    setup(build) {
      build.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]dist[\\/][^\\/]+\.js$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        // A package's build may hold several (one per source file that requires lazily).
        const names = [
          ...text.matchAll(/^(?:const|var|let) (\w+) = createRequire\(import\.meta\.url\);$/gm),
        ].map((declaration) => declaration[1] as string);
        if (names.length === 0) return undefined;
        const calls = new RegExp(`\\b(${names.join('|')})\\((['"])([^'"]+)\\2\\)`, 'g');
        const contents = text.replace(calls, (_call, name: string, _quote, specifier: string) => {
          vendored.set(specifier, args.path);
          return `${name}("#vendor/${vendorName(specifier)}")`;
        });
        return { contents, loader: 'js' };
      });
    },
  };
}

/**
 * Builds each package {@link vendorLazyRequires} found into `dist/vendor/<name>.cjs`, one
 * CommonJS file with its dependencies. Resolves with the input files of every build, for the
 * licence notices.
 */
export async function buildVendored(vendored: Map<string, string>, distDir: string): Promise<string[]> {
  const inputs: string[] = [];
  for (const [specifier, requiredBy] of vendored) {
    // The entry only re-exports the package, so the file's own top level sets nothing but
    // `module.exports`; a package's `exports.default` and `__esModule` stay inside its module.
    const result = await build({
      stdin: {
        contents: `module.exports = require(${JSON.stringify(createRequire(requiredBy).resolve(specifier))});`,
        loader: 'js',
        resolveDir: dirname(requiredBy),
      },
      outfile: join(distDir, 'vendor', `${vendorName(specifier)}.cjs`),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      legalComments: 'none',
      metafile: true,
      logLevel: 'error',
    });
    inputs.push(...Object.keys(result.metafile.inputs).map((input) => resolve(input)));
  }
  return inputs;
}

/** The first LICENSE-like file of a package folder, if it has one. */
async function licenseText(folder: string): Promise<string | undefined> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const name = names.find((entry) => /^(licen[cs]e|copying|notice)(\.|$)/i.test(entry));
  return name ? readFile(join(folder, name), 'utf8') : undefined;
}

/** The folder of the npm package a bundled input file belongs to, or undefined for our own. */
function packageFolderOf(input: string): string | undefined {
  const at = input.lastIndexOf('node_modules/');
  if (at === -1) return undefined;
  const rest = input.slice(at + 'node_modules/'.length).split('/');
  const depth = rest[0]?.startsWith('@') ? 2 : 1;
  return input.slice(0, at) + ['node_modules', ...rest.slice(0, depth)].join('/');
}

/**
 * Writes `dist/THIRD-PARTY-NOTICES.md` from esbuild's metafile and the vendored builds' inputs:
 * each bundled npm package with its version, licence and licence text, as their licences ask of
 * a copy. Removes the metafile.
 */
export async function writeThirdPartyNotices(distDir: string, vendorInputs: string[]): Promise<number> {
  const metafilePath = join(distDir, 'metafile-esm.json');
  const metafile = JSON.parse(await readFile(metafilePath, 'utf8')) as { inputs: Record<string, unknown> };
  await rm(metafilePath);
  const appDir = resolve(distDir, '..');
  const folders = new Set<string>();
  for (const input of [
    ...Object.keys(metafile.inputs).map((name) => resolve(appDir, name)),
    ...vendorInputs,
  ]) {
    const folder = packageFolderOf(input);
    if (folder) folders.add(folder);
  }
  const sections = new Map<string, string>();
  for (const folder of folders) {
    const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      license?: string;
      author?: string | { name?: string };
    };
    if (manifest.name.startsWith('@macstats/')) continue;
    const text = (await licenseText(folder)) ?? (await licenseText(dirname(folder)));
    const licence = manifest.license ?? 'see its package';
    const author = typeof manifest.author === 'string' ? manifest.author : manifest.author?.name;
    const body = text
      ? `\`\`\`\n${text.trim()}\n\`\`\``
      : `The package ships no licence file; its package.json declares ${licence}${author ? `, by ${author}` : ''}.`;
    sections.set(manifest.name, `## ${manifest.name} ${manifest.version} (${licence})\n\n${body}\n`);
  }
  const ordered = [...sections.keys()].sort().map((name) => sections.get(name));
  const intro =
    '# Third-party notices\n\nThe macstats CLI bundles these npm packages into `dist/`; each keeps its own licence.\n';
  await writeFile(join(distDir, 'THIRD-PARTY-NOTICES.md'), `${intro}\n${ordered.join('\n')}`);
  return sections.size;
}
