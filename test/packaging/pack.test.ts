/**
 * The typed client and the command line install without the registry server: each workspace is packed as npm
 * would publish it, the tarballs are installed into an empty folder, and what was installed is run and compiled
 * against there, far from the checkout's own node_modules.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import {
  cliBackend,
  publishAsAdmin,
  removeDir,
  skillMdText,
  startRegistry,
  tempDir,
  uploader,
  writeTree,
  type Registry,
} from '../cli-commands/harness.js';
import { uniqueName } from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

/** Packed in this order: each one's workspace dependencies come before it. */
const WORKSPACES = ['skill-package', 'rules', 'api-schemas', 'client', 'cli'];

/** What only the server needs; none of it may come with the client or the command line. */
const SERVER_ONLY = [
  'better-sqlite3',
  'pg',
  'ioredis',
  'kysely',
  'fastify',
  'argon2',
  'prom-client',
  'ajv',
  'cookie',
  'lru-cache',
  '@node-rs/argon2',
];
const SERVER_ONLY_SCOPES = ['@aws-sdk', '@fastify', '@smithy', '@zxcvbn-ts'];

/** Every package name installed under `dir` (node_modules), nested ones included. */
function installedPackages(dir: string): string[] {
  const modules = path.join(dir, 'node_modules');
  if (!existsSync(modules)) return [];
  return readdirSync(modules).flatMap((name) => {
    if (name.startsWith('.')) return [];
    if (name.startsWith('@')) {
      return readdirSync(path.join(modules, name)).flatMap((inner) => [
        `${name}/${inner}`,
        ...installedPackages(path.join(modules, name, inner)),
      ]);
    }
    return [name, ...installedPackages(path.join(modules, name))];
  });
}

/** Runs a command to completion; a failure carries its output. */
async function exec(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(file, args, { cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${message}\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

// The workspaces are packed as they are built (scripts/test.mjs builds them before any test runs): their prepack
// scripts, which build again, are not run, since rewriting dist/ while other test files run the command line from it
// would hand those a half-written module. Installing takes the third-party dependencies from npm's cache when it has
// them. A slow machine or a cold cache still ends here, with a named failure.
describe('the client and the command line, packed and installed without the server', { timeout: 240_000 }, () => {
  let work: string;
  let prefix: string;
  let home: string;
  let registry: Registry;
  let slug: string;
  let bin: string;

  before(async () => {
    work = tempDir('skreg-packaging-');
    prefix = path.join(work, 'prefix');
    home = path.join(work, 'home');
    mkdirSync(prefix);
    mkdirSync(home);
    const packed = await exec(
      'npm',
      ['pack', ...WORKSPACES.flatMap((w) => ['-w', `packages/${w}`]), '--ignore-scripts', '--pack-destination', work, '--json', '--silent'],
      { cwd: root },
    );
    const tarballs = (JSON.parse(packed.stdout) as { filename: string }[]).map((p) => path.join(work, p.filename));
    assert.equal(tarballs.length, WORKSPACES.length);
    writeFileSync(path.join(prefix, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await exec('npm', ['install', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--silent', ...tarballs], {
      cwd: work,
    });
    bin = path.join(prefix, 'node_modules', '.bin', 'skill-registry');
    registry = await startRegistry(cliBackend());
  });

  after(async () => {
    await ifSet(registry)?.close();
    if (work) removeDir(work);
  });

  const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') });

  it('installs the five packages and none of the server’s dependencies', () => {
    const installed = installedPackages(prefix);
    for (const name of [
      '@skill-registry/client',
      '@skill-registry/cli',
      '@skill-registry/skill-package',
      '@skill-registry/rules',
      '@skill-registry/api-schemas',
    ]) {
      assert.ok(installed.includes(name), `${name} is installed (${installed.join(', ')})`);
    }
    const server = installed.filter(
      (name) => SERVER_ONLY.includes(name) || SERVER_ONLY_SCOPES.some((scope) => name.startsWith(`${scope}/`)),
    );
    assert.deepEqual(server, [], `server dependencies installed: ${server.join(', ')}`);
    // Only what was built: no TypeScript sources, no tests.
    const files = readdirSync(path.join(prefix, 'node_modules', '@skill-registry', 'client'));
    assert.deepEqual(files.sort(), ['dist', 'package.json']);
  });

  it('runs `skill-registry --help`, and names the server’s commands as the server’s', async () => {
    const help = await exec(bin, ['--help'], { cwd: home, env: env() });
    assert.match(help.stdout, /Client commands/);
    assert.match(help.stdout, /^ {2}search {3}/m);
    assert.match(help.stdout, /come with the server/);
    await assert.rejects(exec(bin, ['serve'], { cwd: home, env: env() }), (error: Error) => {
      assert.match(error.message, /"serve" is a command of the registry server/);
      return true;
    });
  });

  it('dry-runs and publishes a skill folder, finds it with `skill-registry search` and installs it clean', async () => {
    slug = uniqueName('packed');
    const author = await uploader(registry.t);
    const folder = writeTree(path.join(work, slug), { 'SKILL.md': skillMdText(slug, 'Turns packed tarballs into installed tools.') });
    const withKey = { ...env(), SKILL_REGISTRY_URL: registry.url, SKILL_REGISTRY_TOKEN: author.key };
    // The installed command line carries the package scanner: a dry run scans on this machine.
    const dry = await exec(bin, ['publish', folder, '--version', '1.0.0', '--dry-run', '--json'], { cwd: home, env: withKey });
    assert.equal((JSON.parse(dry.stdout) as { scan: { verdict: string } }).scan.verdict, 'clean');
    await exec(bin, ['publish', folder, '--version', '1.0.0', '--json'], { cwd: home, env: withKey });
    await publishAsAdmin(registry.t, slug);

    const found = await exec(bin, ['search', 'packed', 'tarballs', '--registry', registry.url, '--json'], { cwd: home, env: env() });
    const result = JSON.parse(found.stdout) as { items: { slug: string; latest_version: string | null }[] };
    assert.deepEqual(
      result.items.map((s) => [s.slug, s.latest_version]),
      [[slug, '1.0.0']],
    );
    const installed = await exec(bin, ['install', slug, '--require-clean', '--dir', path.join(work, 'skills'), '--json'], {
      cwd: home,
      env: { ...env(), SKILL_REGISTRY_URL: registry.url },
    });
    const outcome = JSON.parse(installed.stdout) as { installed: { scan: { verdict: string } | null }[] };
    assert.equal(outcome.installed[0]?.scan?.verdict, 'clean');
  });

  it('compiles a TypeScript program against the installed client’s types', async () => {
    writeFileSync(
      path.join(prefix, 'consumer.ts'),
      `import { createClient, ProblemError, type Skill, type SkillList } from '@skill-registry/client';

const client = createClient({ baseUrl: 'http://127.0.0.1:3000' });
export async function firstSlug(): Promise<string | undefined> {
  const list: SkillList = await client.skills.list({ q: 'pdf', sort: 'downloads' });
  const first: Skill | undefined = list.items[0];
  return first?.slug;
}
export function codeOf(error: unknown): string | null {
  return error instanceof ProblemError ? error.code : null;
}
// The types are the API's, not \`any\`: each line below is an error the compiler must report.
// @ts-expect-error sort takes latest, downloads or featured
void client.skills.list({ sort: 'newest' });
// @ts-expect-error a slug is a string
export const wrong: number = ({} as Skill).slug;
`,
    );
    writeFileSync(
      path.join(prefix, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          // The installed declarations are checked too: they must hold together without the registry's sources.
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [path.join(root, 'node_modules', '@types')],
        },
        files: ['consumer.ts'],
      }),
    );
    await exec(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', prefix], { cwd: prefix });
    // The declarations name packages, never files of the registry's checkout.
    const declarations = readFileSync(path.join(prefix, 'node_modules', '@skill-registry', 'client', 'dist', 'types.d.ts'), 'utf8');
    assert.match(declarations, /from '@skill-registry\/api-schemas\/skills'/);
    assert.doesNotMatch(declarations, /src\/http/);
  });
});
