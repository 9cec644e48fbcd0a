#!/usr/bin/env node
// Builds what changed since the last build. The workspace packages, the server and the web console are each rebuilt
// only when a file they are built from differs from their last successful build: a hash of those files' paths and
// contents is kept per part in dist/.build-stamps, so `npm start` on an unchanged checkout starts at once.
//   node scripts/build.mjs            build the stale parts
//   node scripts/build.mjs --force    build every part
//   node scripts/build.mjs --check    list the stale parts, build nothing (exit 1 when any is stale)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SKIPPED = new Set(['node_modules', 'dist', 'wasm', '.git']);

/** Every file under the given paths (files or folders, relative to `root`), sorted; build outputs left out. */
function filesOf(root, inputs) {
  const out = [];
  const walk = (relative) => {
    const full = path.join(root, relative);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full)) if (!SKIPPED.has(name) && !name.endsWith('.tsbuildinfo')) walk(path.join(relative, name));
    } else out.push(relative.split(path.sep).join('/'));
  };
  for (const input of inputs) walk(input);
  return [...new Set(out)].sort();
}

/** What a part was last built from: its input files' paths and contents, and the Node.js major it was built by. */
export function fingerprint(root, inputs) {
  const hash = createHash('sha256').update(`node ${process.versions.node.split('.')[0]}\n`);
  for (const file of filesOf(root, inputs))
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(root, file)))
      .update('\0');
  return hash.digest('hex');
}

function workspaces(root) {
  return JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces ?? [];
}

/**
 * The parts of this checkout's build, in the order they must run. Each names what it is built from, what it leaves
 * (an output that is missing makes it stale whatever the stamp says), and how to build it.
 */
export function projectParts(root = ROOT) {
  const packages = workspaces(root);
  const shared = ['package.json', 'package-lock.json', 'tsconfig.json'];
  const packageSources = packages.flatMap((dir) => [`${dir}/src`, `${dir}/package.json`]);
  return [
    ...packages.map((dir) => ({
      name: dir,
      inputs: [dir, ...shared],
      outputs: [`${dir}/dist`],
      command: ['npm', 'run', 'build', '--silent', `--workspace=${dir}`],
    })),
    {
      name: 'server',
      inputs: ['src', 'tsconfig.build.json', ...packageSources, ...shared],
      outputs: ['dist/cli/main.js'],
      command: ['npx', '--no-install', 'tsc', '-p', 'tsconfig.build.json'],
      // The command's entry point is run directly as `skill-registry` once installed.
      after: () => chmodSync(path.join(root, 'dist/cli/main.js'), 0o755),
    },
    {
      name: 'console',
      inputs: ['web', ...packageSources, ...shared],
      outputs: ['dist/console/index.html'],
      command: ['npx', '--no-install', 'vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
    },
  ];
}

function stampFile(root, part) {
  return path.join(root, 'dist/.build-stamps', `${part.name.replaceAll('/', '_')}.sha256`);
}

/** The parts whose inputs changed since their last build, or whose outputs are missing. */
export function staleParts(root, parts) {
  return parts.filter((part) => {
    if (!part.outputs.every((output) => existsSync(path.join(root, output)))) return true;
    const stamp = stampFile(root, part);
    return !existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== fingerprint(root, part.inputs);
  });
}

/** Builds the stale parts (all of them with `force`), in order; a part's stamp is written only when it built. */
export function build(root, parts, { force = false, log = (line) => console.log(line) } = {}) {
  const stale = new Set((force ? parts : staleParts(root, parts)).map((part) => part.name));
  const built = [];
  for (const part of parts) {
    if (!stale.has(part.name)) continue;
    const started = Date.now();
    const stamp = stampFile(root, part);
    rmSync(stamp, { force: true });
    // Built as shipped whatever the caller's NODE_ENV (a test runner's `test` would give React's development build).
    const env = { ...process.env, NODE_ENV: 'production' };
    const result = spawnSync(part.command[0], part.command.slice(1), {
      cwd: root,
      env,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    if (result.status !== 0) throw new Error(`Building ${part.name} failed (${part.command.join(' ')})`);
    part.after?.();
    mkdirSync(path.dirname(stamp), { recursive: true });
    writeFileSync(stamp, `${fingerprint(root, part.inputs)}\n`);
    built.push(part.name);
    log(`built ${part.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (built.length === 0) log('build is current');
  return built;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = new Set(process.argv.slice(2));
  const parts = projectParts();
  if (args.has('--check')) {
    const stale = staleParts(ROOT, parts).map((part) => part.name);
    console.log(stale.length === 0 ? 'build is current' : `stale: ${stale.join(', ')}`);
    process.exit(stale.length === 0 ? 0 : 1);
  }
  try {
    build(ROOT, parts, { force: args.has('--force') });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
