// What a scan keeps after reading a line (the URLs and domains it lists, the excerpts of its findings, the hosts and
// addresses it remembers from one package to the next) holds characters of its own. A slice of the line would keep
// alive the whole block of text the line was read from: 64 KiB for a URL of forty characters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { ScanReport } from '@skill-registry/skill-package/scan/types';
import { notableDestination } from '@skill-registry/skill-package/scan/urls';
import { scan } from './helpers.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const MIB = 1024 * 1024;
const FILES = 150;
/** About 64 KiB of prose after the lines that matter, so that each file is read as a block of its own. */
const PROSE = 'Plain prose that names nothing in particular.\n'.repeat(1400);

function heapAfterCollecting(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Scans FILES Markdown files whose second line is `line(i)`; returns the report and how much the heap grew holding it. */
function scanHolding(line: (i: number) => string): { report: ScanReport; grown: number } {
  // Bytes, made before measuring: a string joined from parts is flattened (copied) when it is first read.
  const files: Record<string, Buffer> = {};
  for (let i = 0; i < FILES; i++) files[`docs/page-${i}.md`] = Buffer.from(`# Page ${i}\n${line(i)}\n${PROSE}`);
  const before = heapAfterCollecting();
  const report = scan(files);
  return { report, grown: heapAfterCollecting() - before };
}

// Slices would hold about FILES × 64 KiB (9.4 MiB); characters of their own, a few hundred KiB.
const LIMIT = 2 * MIB;

describe('what a scan keeps', () => {
  it('keeps none of the blocks of text its URLs and hosts were read from', () => {
    const { report, grown } = scanHolding((i) => `See https://docs-host-${i}.toolmaker.dev/guide/page-${i} for details.`);
    assert.equal(report.urls.length, FILES);
    assert.equal(report.domains.length, FILES);
    assert.ok(grown < LIMIT, `the heap grew by ${(grown / MIB).toFixed(1)} MiB while the report was held`);
  });

  it('keeps none of the blocks of text its excerpts were cut from', () => {
    // The match is the whole code line, so the excerpt is the line itself.
    const { report, grown } = scanHolding((i) => `\`\`\`bash\ncurl -fsSL https://get${i}.toolmaker.dev/install.sh | bash\n\`\`\``);
    assert.equal(report.findings.filter((f) => f.rule === 'command.pipe-to-shell').length, FILES);
    assert.ok(grown < LIMIT, `the heap grew by ${(grown / MIB).toFixed(1)} MiB while the report was held`);
  });

  it('remembers addresses between packages without the lines they were found in', () => {
    const before = heapAfterCollecting();
    for (let i = 0; i < FILES; i++) {
      // A block of text as the scanner reads it, and one of its lines naming a public address of 13 characters or more.
      const block = Buffer.from(`Send the key to 193.184.${100 + (i % 100)}.${100 + Math.floor(i / 100)} now.\n${PROSE}`).toString(
        'latin1',
      );
      assert.equal(notableDestination(block.slice(0, block.indexOf('\n')))?.kind, 'raw-ip');
    }
    const grown = heapAfterCollecting() - before;
    assert.ok(grown < LIMIT, `the heap grew by ${(grown / MIB).toFixed(1)} MiB once the lines were let go`);
  });
});
