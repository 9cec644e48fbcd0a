/**
 * Differential test: every package the registry accepts is extracted by real extractors — unzip and Python's
 * zipfile for zips; GNU tar and Python's tarfile (without a filter and with each extraction filter) for
 * tar.gz — and what lands on disk must be exactly the registry's file list, with the bytes the registry
 * serves for each file (openPackageEntry, what GET …/files/<path> streams): no other file, no link, nothing
 * outside the extraction folder, and no extractor refusing or complaining.
 *
 * It runs over the hostile archives of the suite (refusal rows and hostile.ts; most are refused, which is
 * fine) and a generated corpus: a seeded generator (the seed is printed; DIFFERENTIAL_SEED overrides it)
 * building a few hundred archives, valid and malformed. unzip, GNU tar and python3 must be installed: the
 * test fails, naming what is missing, without them.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inspectPackage, openPackageEntry } from '@skill-registry/skill-package/inspect';
import { PackageError, type Inspection } from '@skill-registry/skill-package/types';
import { generateCorpus, type Sample } from './corpus.js';
import { extractAll, isHarmless, requireExtractors, type Extraction } from './extractors.js';
import { bufferSource, collect, skillMd, tarGz, yazlZip } from './helpers.js';
import { gz, header, padded, tar } from './tar-builder.js';
import { buildZip } from './zip-builder.js';
import { ROWS } from './refusal-rows.js';

const SEED = Number(process.env.DIFFERENTIAL_SEED ?? 20261124);
const CORPUS_SIZE = 360;

interface Served {
  sample: Sample;
  inspection: Inspection;
  files: Map<string, { size: number; sha256: string }>;
}

async function registryView(sample: Sample): Promise<Served | PackageError> {
  const source = bufferSource(sample.bytes);
  let inspection: Inspection;
  try {
    inspection = await inspectPackage(source);
  } catch (err) {
    if (err instanceof PackageError) return err;
    throw err;
  }
  const files = new Map<string, { size: number; sha256: string }>();
  for (const file of inspection.files) {
    const stream = await openPackageEntry(source, sample.format, file.path);
    assert.ok(stream, `${sample.name}: the registry lists ${file.path} but cannot serve it`);
    const bytes = await collect(stream);
    assert.equal(bytes.length, file.size, `${sample.name}: ${file.path} is listed with ${file.size} bytes but served with ${bytes.length}`);
    files.set(file.path, { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  return { sample, inspection, files };
}

function differences(served: Served, extraction: Extraction): string[] {
  if (extraction.unsafe !== undefined) return [`python sees something the registry does not: ${extraction.unsafe}`];
  const out: string[] = [];
  for (const run of extraction.runs) {
    if (run.error !== undefined && !isHarmless(run.error)) {
      out.push(`${run.extractor} refused or complained: ${run.error}`);
    }
    const tree = run.tree;
    if (tree === undefined) continue;
    const seen = new Set<string>();
    for (const [p, node] of tree) {
      if (p.startsWith('!')) out.push(`${run.extractor} wrote outside its folder: ${p.slice(1)} (${node.type})`);
      else if (node.type === 'file') {
        seen.add(p);
        const want = served.files.get(p);
        if (want === undefined) out.push(`${run.extractor} wrote ${p}, which the registry does not list`);
        else if (want.sha256 !== node.sha256)
          out.push(`${run.extractor} wrote other bytes for ${p} (${node.size} bytes, the registry serves ${want.size})`);
      } else if (node.type !== 'dir') out.push(`${run.extractor} made ${p} a ${node.type}${node.target ? ` to ${node.target}` : ''}`);
    }
    for (const p of served.files.keys()) if (!seen.has(p)) out.push(`${run.extractor} did not write ${p}, which the registry lists`);
  }
  return out;
}

describe('differential: what the registry accepts is exactly what extractors unpack', { timeout: 180_000 }, () => {
  let dir: string;
  before(() => {
    requireExtractors();
    dir = mkdtempSync(path.join(tmpdir(), 'skreg-differential-'));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function check(label: string, samples: Sample[], minimumAccepted: number): Promise<void> {
    const accepted: Served[] = [];
    let refused = 0;
    for (const sample of samples) {
      const view = await registryView(sample);
      if (view instanceof PackageError) refused += 1;
      else accepted.push(view);
    }
    const extractions = extractAll(
      path.join(dir, label),
      accepted.map((s) => ({ bytes: s.sample.bytes, format: s.sample.format })),
    );
    const problems: string[] = [];
    accepted.forEach((served, i) => {
      for (const d of differences(served, extractions[i]!)) problems.push(`${served.sample.name}: ${d}`);
    });
    console.log(`# ${label}: ${samples.length} archives, ${accepted.length} accepted and extracted, ${refused} refused`);
    assert.deepEqual(problems, [], `accepted archives that extractors read differently:\n${problems.join('\n')}`);
    assert.ok(accepted.length >= minimumAccepted, `only ${accepted.length} accepted: the comparison would prove little`);
  }

  it('hostile archives of the suite', async () => {
    const samples: Sample[] = [];
    for (const row of ROWS) {
      const bytes = await row.build();
      const format = bytes[0] === 0x1f ? 'tar.gz' : 'zip';
      samples.push({ name: row.name, format, bytes });
    }
    await check('hostile', samples, 0);
  });

  it(`a generated corpus (seed ${SEED})`, async () => {
    console.log(`# differential corpus seed: ${SEED} (set DIFFERENTIAL_SEED to replay another)`);
    await check('corpus', generateCorpus(SEED, CORPUS_SIZE), 40);
  });

  it('ordinary and unusual-but-valid packages (the comparison itself works)', async () => {
    const skill = skillMd();
    const zipWithComment = buildZip([
      { name: 'SKILL.md', data: skill },
      { name: 'docs/a.md', data: '# a\n', dataDescriptor: true },
    ]);
    zipWithComment.writeUInt16LE(9, zipWithComment.length - 2);
    const samples: Sample[] = [
      {
        name: 'yazl zip',
        format: 'zip',
        bytes: await yazlZip([
          { name: 'SKILL.md', data: skill },
          { name: 'docs/', directory: true },
          { name: 'docs/a.md', data: '# a\n' },
          { name: 'bin/x.bin', data: Buffer.alloc(3000, 7) },
        ]),
      },
      {
        name: 'yazl zip64',
        format: 'zip',
        bytes: await yazlZip(
          [
            { name: 'SKILL.md', data: skill },
            { name: 'a/b.txt', data: 'b' },
          ],
          { forceZip64Format: true },
        ),
      },
      { name: 'zip with a comment and a data descriptor', format: 'zip', bytes: Buffer.concat([zipWithComment, Buffer.from('a comment')]) },
      {
        name: 'tar-stream tar.gz',
        format: 'tar.gz',
        bytes: await tarGz([
          { name: './', type: 'directory' },
          { name: './SKILL.md', data: skill },
          { name: './lib/x.js', data: 'x' },
        ]),
      },
      {
        name: 'pax path and size, GNU long name, GNU and v7 headers, record padding',
        format: 'tar.gz',
        bytes: gz(
          Buffer.concat([
            tar([
              { file: 'SKILL.md', data: skill, fields: { format: 'gnu' } },
              {
                pax: [
                  ['path', 'renamed.txt'],
                  ['mtime', '1700000000.5'],
                ],
              },
              { file: 'original.txt', data: 'pax path' },
              { pax: [['size', '3']] },
              { raw: Buffer.concat([header({ name: 'sized.txt', size: 0 }), padded(Buffer.from('abc'))]) },
              { longName: `${'long/'.repeat(30)}name.txt` },
              { file: 'short', data: 'long name' },
              { file: 'v7.txt', data: 'v7', fields: { format: 'v7' } },
            ]),
            Buffer.alloc(8192),
          ]),
        ),
      },
    ];
    await check('ordinary', samples, samples.length);
  });
});
