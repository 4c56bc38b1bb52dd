#!/usr/bin/env node
// Draws the workspace's structure and counts what docs/architecture.md promises:
// `node scripts/architecture.mjs` prints the rooms (packages and apps), the floors they stand on
// (a package's floor is one above the highest package it uses), the arrows back up between
// packages, and inside core: its rooms (the folders and top-level files of `src/`), the circles
// among its files (groups of files that import each other round, type imports included) and its
// imports back up (imports between rooms that import each other round). test/architecture-counts
// runs the same functions and fails on any circle or import back up.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const IMPORT =
  /(?:^|[\s;}])(?:import|export)\s+(?:type\s+)?(?:[\s\S]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The `.ts` source files (not tests) under a folder. */
export function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  const files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** Every module a file imports or re-exports from (type imports included), as written. */
export function importsOf(file) {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, '$1');
  return [...text.matchAll(IMPORT)].map((match) => match[1] ?? match[2]);
}

/** Strongly connected groups of a graph (Tarjan), each with more than one node or a self-edge. */
export function circles(graph) {
  let index = 0;
  const stack = [];
  const seen = new Map();
  const low = new Map();
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    seen.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!seen.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), seen.get(next)));
    }
    if (low.get(node) === seen.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (graph.get(node) ?? new Set()).has(node)) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!seen.has(node)) visit(node);
  return found;
}

/** One package's files and the relative imports between them. */
export function fileGraph(srcDir) {
  const graph = new Map();
  for (const file of sourceFiles(srcDir)) {
    const from = relative(srcDir, file);
    const targets = new Set();
    for (const spec of importsOf(file)) {
      if (!spec.startsWith('.')) continue;
      const target = relative(srcDir, resolve(dirname(file), spec)).replace(/\.js$/, '.ts');
      if (existsSync(join(srcDir, target))) targets.add(target);
      else if (existsSync(join(srcDir, target.replace(/\.ts$/, '/index.ts'))))
        targets.add(target.replace(/\.ts$/, '/index.ts'));
    }
    graph.set(from, targets);
  }
  return graph;
}

/** The room of a file: its top folder under `src/`, or the file itself at the top. */
const roomOf = (file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file);

/** Core's structure: rooms, circles among files, and imports between rooms that import each other round. */
export function coreStructure(root) {
  const files = fileGraph(join(root, 'packages/core/src'));
  const rooms = new Map();
  for (const [file, targets] of files) {
    const room = roomOf(file);
    if (!rooms.has(room)) rooms.set(room, new Set());
    for (const target of targets) if (roomOf(target) !== room) rooms.get(room).add(roomOf(target));
  }
  const roundRooms = circles(rooms);
  const backUp = [];
  for (const group of roundRooms)
    for (const [file, targets] of files)
      for (const target of targets)
        if (group.includes(roomOf(file)) && group.includes(roomOf(target)) && roomOf(file) !== roomOf(target))
          backUp.push(`${file} -> ${target}`);
  return { rooms, fileCircles: circles(files), roomCircles: roundRooms, backUp };
}

/** The workspace's packages and apps, each with the internal packages its manifest and source use. */
export function packageGraph(root) {
  const graph = new Map();
  const folders = new Map();
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      const manifestPath = join(root, group, name, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      folders.set(manifest.name, `${group}/${name}`);
      const uses = new Set(
        Object.keys(manifest.dependencies ?? {}).filter((dep) => dep.startsWith('@macstats/')),
      );
      for (const file of sourceFiles(join(root, group, name, 'src')))
        for (const spec of importsOf(file)) {
          const match = /^(@macstats\/[a-z0-9-]+)/.exec(spec);
          if (match && match[1] !== manifest.name) uses.add(match[1]);
        }
      graph.set(manifest.name, uses);
    }
  }
  for (const uses of graph.values()) for (const used of uses) if (!graph.has(used)) uses.delete(used);
  return { graph, folders };
}

/** Each package's floor: 0 for one that uses no other, else one above the highest it uses. */
export function floors(graph) {
  const floor = new Map();
  const visiting = new Set();
  const of = (name) => {
    if (floor.has(name)) return floor.get(name);
    if (visiting.has(name)) return 0; // a circle: reported by `circles`, not counted here
    visiting.add(name);
    const value = Math.max(-1, ...[...(graph.get(name) ?? [])].map(of)) + 1;
    visiting.delete(name);
    floor.set(name, value);
    return value;
  };
  for (const name of graph.keys()) of(name);
  return floor;
}

function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const { graph } = packageGraph(root);
  const floor = floors(graph);
  const packageCircles = circles(graph);
  const core = coreStructure(root);
  const byFloor = new Map();
  for (const [name, value] of floor) byFloor.set(value, [...(byFloor.get(value) ?? []), name]);
  console.log(
    `Workspace: ${graph.size} rooms on ${byFloor.size} floors, ${packageCircles.length} circles (arrows back up) between packages.`,
  );
  for (const value of [...byFloor.keys()].sort((a, b) => a - b))
    console.log(`  floor ${value}: ${byFloor.get(value).sort().join(', ')}`);
  const coreFloor = floors(core.rooms);
  console.log(
    `Core: ${core.rooms.size} rooms on ${new Set(coreFloor.values()).size} floors, ${core.fileCircles.length} circles among its files, ${core.backUp.length} imports back up.`,
  );
  const coreByFloor = new Map();
  for (const [room, value] of coreFloor) coreByFloor.set(value, [...(coreByFloor.get(value) ?? []), room]);
  for (const value of [...coreByFloor.keys()].sort((a, b) => a - b))
    console.log(`  floor ${value}: ${coreByFloor.get(value).sort().join(', ')}`);
  for (const group of core.fileCircles) console.log(`  circle: ${group.join(' ↔ ')}`);
  for (const edge of core.backUp) console.log(`  back up: ${edge}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
