import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, freePort } from './helpers/process.js';

/**
 * The README's "First steps" run as written, in order, against a registry started by their own first block: the
 * server block through `npm start`, then every other block in one shell, as a reader pastes them into one terminal.
 * Only the port differs (the README's 3000 may be taken here), and the data folder and home are temporary.
 */

const readme = readFileSync('README.md', 'utf8');

/** The `sh` blocks of a section of the README, in order. */
function shellBlocks(heading: string): string[] {
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `the README has a "${heading}" section`);
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** A reader's environment: none of the test runner's settings nor a registry client's. */
function readerEnv(): NodeJS.ProcessEnv {
  const dropped = ['NODE_ENV', 'NODE_OPTIONS', 'SKILL_REGISTRY_URL', 'SKILL_REGISTRY_TOKEN', 'DATABASE_URL', 'STORAGE_URL'];
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !dropped.includes(name)));
}

interface Run {
  code: number | null;
  output: string;
}

function bash(script: string, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("the README's first steps", { timeout: 300_000 }, () => {
  const blocks = shellBlocks('First steps');
  const root = process.cwd();
  const work = path.join(root, 'test-results', `first-steps-${process.pid}`);
  const home = mkdtempSync(path.join(tmpdir(), 'skreg-readme-home-'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skreg-readme-data-'));
  let port: number;
  let server: ReturnType<typeof spawn> | undefined;
  let serverOutput = '';

  before(async () => {
    mkdirSync(work, { recursive: true });
    port = await freePort();
    assert.equal(blocks.length, 4, 'start, package, curl, command line');
    assert.match(blocks[0]!, /npm start/);
    // The server block, as written; detached, so its process group (npm and the server) can be stopped together.
    server = spawn('bash', ['-c', blocks[0]!], {
      cwd: root,
      env: { ...readerEnv(), PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    server.stdout?.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
    await eventually(
      'the registry started by `npm start` answers',
      async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.ok === true,
      120_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${serverOutput}`);
    });
  });

  after(async () => {
    if (server?.pid !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      process.kill(-server.pid, 'SIGTERM');
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('package a skill, publish and download it with curl, then publish, find and install it with the CLI', async () => {
    const script = blocks.slice(1).join('\n').replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`);
    assert.ok(script.includes(`127.0.0.1:${port}`), 'the blocks talk to the registry the first block started');
    const run = await bash(script, {
      cwd: work,
      env: { ...readerEnv(), HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') },
      timeoutMs: 240_000,
    });
    assert.equal(run.code, 0, run.output);
    const steps = path.join(work, 'first-steps');
    // curl: the upload was scanned, the search found it, the download is the package uploaded.
    assert.match(run.output, /"version":"1\.0\.0".*"verdict":"clean"/s);
    assert.match(run.output, /"slug":"pdf-tools"/);
    assert.ok(existsSync(path.join(steps, 'pdf-tools-1.0.0.tar.gz')), run.output);
    assert.deepEqual(readFileSync(path.join(steps, 'pdf-tools-1.0.0.tar.gz')), readFileSync(path.join(steps, 'pdf-tools.tar.gz')));
    assert.match(run.output, /^\.\/SKILL\.md$/m);
    // The command line: published 1.1.0, found it, installed it into the agent skills folder.
    assert.match(run.output, /^Installed pdf-tools 1\.1\.0 in /m);
    assert.equal(
      readFileSync(path.join(steps, '.claude/skills/pdf-tools/SKILL.md'), 'utf8'),
      readFileSync(path.join(steps, 'pdf-tools/SKILL.md'), 'utf8'),
    );
  });
});
