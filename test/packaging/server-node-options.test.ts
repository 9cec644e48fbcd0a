import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { REGISTRY_NODE_ARGS } from '../../bench/lib/processes.js';

/**
 * The server runs with a 1 MiB young generation wherever it is started as a product: V8 then frees the buffers an
 * upload streams through within about a megabyte instead of about thirty, which is what keeps a 50 MiB upload's
 * memory within its target. The benchmarks measure the server started the same way.
 */
const FLAG = '--max-semi-space-size=1';

describe('the Node options the server runs with', () => {
  it('npm start passes them', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    assert.equal(manifest.scripts.start, `node ${FLAG} scripts/start.mjs`);
  });

  it('the container image passes them', () => {
    assert.match(readFileSync('Dockerfile', 'utf8'), new RegExp(`^CMD \\["node", "${FLAG}", "dist/cli/main.js", "serve"\\]$`, 'm'));
  });

  it('the benchmarks start the registry with them unless told otherwise', () => {
    assert.deepEqual(REGISTRY_NODE_ARGS, [FLAG]);
  });
});
