/**
 * The differential test through the API: packages the registry accepts are uploaded to the real app (SQLite
 * and PostgreSQL), and the file list (GET …/files) and every file's bytes (GET …/files/<path>) must be what
 * unzip, GNU tar and Python's zipfile and tarfile write to disk. The archives are the first accepted ones of
 * the seeded corpus (the same seed as differential.test.ts) and a few unusual-but-valid ones.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import { startApp, type TestApp } from '../helpers/app.js';
import { multipart } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';
import { authHeaders, createSkill, expectStatus, json, registerUser, type TestUser } from '../helpers/client.js';
import { generateCorpus, type Sample } from './corpus.js';
import { extractAll, isHarmless, requireExtractors, type Extraction } from './extractors.js';
import { bufferSource, skillMd, yazlZip } from './helpers.js';
import { gz, tar } from './tar-builder.js';
import { ifSet } from '../helpers/hooks.js';

const SEED = Number(process.env.DIFFERENTIAL_SEED ?? 20261124);
const SAMPLES = 16;

async function acceptedSamples(): Promise<Sample[]> {
  const out: Sample[] = [
    {
      name: 'yazl zip64',
      format: 'zip',
      bytes: await yazlZip(
        [
          { name: 'SKILL.md', data: skillMd() },
          { name: 'a/b.txt', data: 'b' },
        ],
        { forceZip64Format: true },
      ),
    },
    {
      name: 'pax path and GNU long name',
      format: 'tar.gz',
      bytes: gz(
        tar([
          { file: 'SKILL.md', data: skillMd() },
          { pax: [['path', 'renamed.txt']] },
          { file: 'original.txt', data: 'x' },
          { longName: `${'long/'.repeat(30)}n.txt` },
          { file: 'short', data: 'y' },
        ]),
      ),
    },
  ];
  for (const sample of generateCorpus(SEED, 360)) {
    if (out.length >= SAMPLES) break;
    try {
      const inspection = await inspectPackage(bufferSource(sample.bytes));
      if (inspection.skillMdPath !== null) out.push(sample);
    } catch {
      // Refused: nothing to compare.
    }
  }
  return out;
}

for (const backend of backends()) {
  describe(`differential through the API [${backend.name}]`, { timeout: 180_000 }, () => {
    let t: TestApp;
    let owner: TestUser;
    let dir: string;
    let samples: Sample[];
    let extractions: Extraction[];
    before(async () => {
      requireExtractors();
      dir = mkdtempSync(path.join(tmpdir(), 'skreg-differential-http-'));
      samples = await acceptedSamples();
      extractions = extractAll(
        dir,
        samples.map((s) => ({ bytes: s.bytes, format: s.format })),
      );
      t = await startApp(backend);
      owner = await registerUser(t);
    });
    after(async () => {
      await ifSet(t)?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('serves exactly the files and bytes every extractor writes', async () => {
      assert.ok(samples.length >= 8, `only ${samples.length} samples`);
      const problems: string[] = [];
      for (const [i, sample] of samples.entries()) {
        const skill = await createSkill(t, owner.session);
        const body = multipart({ version: '1.0.0' }, { content: sample.bytes, filename: sample.format === 'zip' ? 'p.zip' : 'p.tar.gz' });
        const res = await t.request({
          method: 'POST',
          url: `/v1/skills/${skill.slug}/versions`,
          headers: { ...authHeaders(owner.session), ...body.headers },
          payload: body.payload,
        });
        expectStatus(res, 201);
        const base = `/v1/skills/${skill.slug}/versions/1.0.0/files`;
        const list = json<{ items: { path: string; size: number }[] }>(
          expectStatus(await t.request({ method: 'GET', url: base, headers: authHeaders(owner.session) }), 200),
        );
        const served = new Map<string, string>();
        for (const file of list.items) {
          const url = `${base}/${file.path.split('/').map(encodeURIComponent).join('/')}`;
          const content = expectStatus(await t.request({ method: 'GET', url, headers: authHeaders(owner.session) }), 200).rawPayload;
          assert.equal(content.length, file.size, `${sample.name}: ${file.path} size`);
          served.set(file.path, createHash('sha256').update(content).digest('hex'));
        }
        const extraction = extractions[i]!;
        if (extraction.unsafe !== undefined) problems.push(`${sample.name}: python sees ${extraction.unsafe}`);
        for (const run of extraction.runs) {
          if (run.error !== undefined && !isHarmless(run.error)) problems.push(`${sample.name}: ${run.extractor}: ${run.error}`);
          if (run.tree === undefined) continue;
          const written = new Map(
            [...run.tree].filter(([, node]) => node.type !== 'dir').map(([p, node]) => [p, node.sha256 ?? node.type]),
          );
          if (JSON.stringify([...written].sort()) !== JSON.stringify([...served].sort())) {
            problems.push(
              `${sample.name}: ${run.extractor} wrote ${JSON.stringify([...written.keys()].sort())}, the API serves ${JSON.stringify([...served.keys()].sort())} (or other bytes)`,
            );
          }
        }
      }
      assert.deepEqual(problems, []);
    });
  });
}
