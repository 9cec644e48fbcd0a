#!/usr/bin/env node
import { spawn } from 'node:child_process';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const script = process.argv[2];
if (!script) {
  console.error('usage: ws-run <script>');
  process.exit(2);
}
const root = JSON.parse(readFileSync('package.json', 'utf8'));
const dirs = (root.workspaces ?? []).flatMap((pattern) => globSync(pattern)).filter((d) => existsSync(join(d, 'package.json')));

function run(dir) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script, '--silent'], {
      cwd: dir,
      env: { ...process.env, FORCE_COLOR: '1', WS_NAME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const prefix = `[${dir}] `;
    for (const s of [child.stdout, child.stderr]) s.on('data', (d) => process.stdout.write(d.toString().replace(/^/gm, prefix)));
    child.on('close', (code) => resolve(code));
  });
}

const failed = [];
for (const dir of dirs) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (!pkg.scripts?.[script]) continue;
  if ((await run(dir)) !== 0) failed.push(dir);
}
console.log(failed.length ? `failed: ${failed.join(', ')}` : 'all passed');
process.exit(failed.length ? 1 : 0);
