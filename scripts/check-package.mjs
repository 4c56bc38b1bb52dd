#!/usr/bin/env node
// Publish readiness of the package in the current directory: publint, are-the-types-wrong,
// and what `npm pack` would ship (dist and README in; sources, tests and secrets out).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packageDir = process.cwd();
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const problems = [];

if (manifest.private) {
  console.log(`${manifest.name}: private, not published; skipped.`);
  process.exit(0);
}

// `pack: 'npm'`: the tarball npm would make, so the check runs wherever Node does (no pnpm on PATH).
const { messages, pkg } = await publint({
  pkgDir: packageDir,
  strict: true,
  level: 'suggestion',
  pack: 'npm',
});
for (const message of messages) problems.push(`publint: ${formatMessage(message, pkg) ?? message.code}`);

for (const [field, expected] of [
  ['type', 'module'],
  ['sideEffects', false],
]) {
  if (manifest[field] !== expected)
    problems.push(`package.json: "${field}" must be ${JSON.stringify(expected)}`);
}
if (manifest.publishConfig?.access !== 'public')
  problems.push('package.json: publishConfig.access must be "public"');
if (!manifest.engines?.node) problems.push('package.json: engines.node is missing');
if (!existsSync(join(packageDir, 'README.md'))) problems.push('README.md is missing');
for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
  if (String(range).startsWith('workspace:'))
    problems.push(`${name}: internal packages go in dependencies, not peers`);
}

const packed = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: packageDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }),
);
const files = packed[0].files.map((file) => file.path);
// A library ships its entry point and types; a command-line package (a `bin`, no `exports`)
// ships each command's file, which must start with a Node shebang.
const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
// Every subpath of the exports map ships its `types` and `default` files, `types` first.
const entryPoints = Object.entries(manifest.exports ?? {}).filter(
  ([subpath, target]) => subpath !== './package.json' && typeof target === 'object',
);
for (const [subpath, target] of entryPoints) {
  if (Object.keys(target)[0] !== 'types' || !target.default)
    problems.push(`package.json: exports["${subpath}"] must list "types" first, then "default"`);
}
const entryFiles =
  manifest.exports === undefined && bins.length > 0
    ? bins.map((bin) => bin.replace(/^\.\//, ''))
    : entryPoints.flatMap(([, target]) =>
        [target.types, target.default].map((file) => file?.replace(/^\.\//, '')),
      );
if (manifest.exports !== undefined && entryPoints.length === 0)
  problems.push('package.json: exports has no entry point');
for (const required of ['package.json', 'README.md', ...entryFiles]) {
  if (!files.includes(required)) problems.push(`npm pack: ${required} is not in the tarball`);
}
for (const bin of bins) {
  const path = join(packageDir, bin);
  if (existsSync(path) && !readFileSync(path, 'utf8').startsWith('#!/usr/bin/env node'))
    problems.push(`${bin}: a command must start with #!/usr/bin/env node`);
}
const forbidden = /(^|\/)(src|test|bench)\/|\.test\.|(^|\/)\.env|\.config\.env|\.pem$|\.key$|id_rsa|\.npmrc$/;
for (const file of files) if (forbidden.test(file)) problems.push(`npm pack: ${file} must not be published`);

try {
  execFileSync(
    join(root, 'node_modules', '.bin', 'attw'),
    ['--pack', '.', '--profile', 'esm-only', '--format', 'ascii', '--no-emoji'],
    { cwd: packageDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
} catch (error) {
  problems.push(`are-the-types-wrong:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
}

if (problems.length > 0) {
  console.error(`${manifest.name}: not ready to publish`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
const entries = entryPoints.length > 0 ? entryPoints.map(([subpath]) => subpath).join(', ') : bins.join(', ');
console.log(
  `${manifest.name}: publint clean, are-the-types-wrong clean, npm pack clean (${files.length} files; entry points: ${entries}).`,
);
