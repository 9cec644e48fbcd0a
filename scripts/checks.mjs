#!/usr/bin/env node
// The static checks `npm test` runs before the tests: the type checker and Prettier one after the other, beside ESLint
// (the slowest, and mostly waiting on its own type information), so the two cores are both busy. Each check's output is
// printed whole when it ends, so the two never interleave; the run fails if either fails.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm run -s SCRIPT` for each script in turn, collecting the output; resolves to the first failing status or 0. */
function inTurn(scripts) {
  return new Promise((resolve) => {
    let output = '';
    const next = (i) => {
      if (i === scripts.length) return resolve({ status: 0, output });
      const child = spawn(npm, ['run', '-s', scripts[i]], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('close', (code) => {
        if (code !== 0) return resolve({ status: code ?? 1, output: `${output}npm run ${scripts[i]} failed (exit ${code})\n` });
        next(i + 1);
      });
    };
    next(0);
  });
}

const started = Date.now();
const results = await Promise.all([inTurn(['typecheck', 'format:check']), inTurn(['lint:code'])]);
for (const { output } of results) process.stdout.write(output);
const failed = results.find((r) => r.status !== 0);
console.log(`Checks (types, format, lint): ${failed ? 'failed' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failed ? failed.status : 0);
