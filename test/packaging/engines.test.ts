import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import semver from 'semver';

/**
 * The Node.js versions the project promises (package.json's `engines`) are versions every installed package supports:
 * otherwise `npm install` warns on a machine the README says is enough, and the package may fail there.
 */

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };

describe('engines', () => {
  it('every locked package supports the lowest Node.js of each range the project promises', () => {
    const promised = manifest.engines.node.split('||').map((range) => semver.minVersion(range.trim()));
    assert.ok(promised.length >= 1 && promised.every((v) => v !== null), `engines.node "${manifest.engines.node}" names real versions`);
    const refused: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (where === '' || node === undefined) continue;
      for (const version of promised) {
        if (!semver.satisfies(version, node)) refused.push(`${where}@${entry.version ?? '?'} needs node ${node}, not ${version.version}`);
      }
    }
    assert.deepEqual(refused, []);
  });
});
