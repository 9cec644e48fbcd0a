import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inspectPackage } from '@skill-registry/skill-package/inspect';
import { RULE_FAMILIES } from '@skill-registry/skill-package/scan/types';
import { HARM_FAMILIES, loadCorpus, type Sample } from '../../bench/scan-corpus/index.js';
import { zip } from '../helpers/archives.js';
import { bufferSource } from './helpers.js';

const corpus = loadCorpus();
const malicious = corpus.filter((s) => s.label === 'malicious');
const benign = corpus.filter((s) => s.label === 'benign');

function isSkillMdCandidate(path: string): boolean {
  return path === 'SKILL.md' || /^[^/]+\/SKILL\.md$/.test(path);
}

async function archiveOf(sample: Sample): Promise<Buffer> {
  return zip(sample.files.map((f) => ({ path: f.path, content: typeof f.content === 'string' ? f.content : Buffer.from(f.content) })));
}

describe('scan corpus', () => {
  it('holds at least 70 malicious and 320 benign samples', () => {
    assert.ok(malicious.length >= 70, `${malicious.length} malicious`);
    assert.ok(benign.length >= 320, `${benign.length} benign`);
    assert.equal(malicious.length + benign.length, corpus.length);
  });

  it('gives every sample a unique id whose prefix matches its label', () => {
    const ids = new Set<string>();
    for (const s of corpus) {
      assert.ok(!ids.has(s.id), `duplicate id ${s.id}`);
      ids.add(s.id);
      assert.match(s.id, s.label === 'malicious' ? /^mal-[a-z0-9-]+-\d{2}$/ : /^ben-[a-z0-9-]+-\d{2}$/);
      assert.ok(s.note.length > 0 && !s.note.includes('\n'), `${s.id}: the note is one line`);
    }
  });

  it('labels benign samples with no family and malicious ones with harm families only', () => {
    for (const s of benign) assert.deepEqual(s.families, [], s.id);
    for (const s of malicious) {
      assert.ok(s.families.length > 0, `${s.id} has no family`);
      assert.equal(new Set(s.families).size, s.families.length, `${s.id} repeats a family`);
      for (const f of s.families) {
        assert.ok((RULE_FAMILIES as readonly string[]).includes(f), `${s.id}: ${f} is no rule family`);
        assert.ok((HARM_FAMILIES as readonly string[]).includes(f), `${s.id}: ${f} is not a harm family`);
      }
    }
  });

  it('covers every harm family with at least five malicious samples', () => {
    for (const family of HARM_FAMILIES) {
      const count = malicious.filter((s) => s.families.includes(family)).length;
      assert.ok(count >= 5, `${family}: ${count} samples`);
    }
  });

  it('gives every sample exactly one SKILL.md and distinct paths', () => {
    for (const s of corpus) {
      assert.equal(s.files.filter((f) => isSkillMdCandidate(f.path)).length, 1, `${s.id}: SKILL.md candidates`);
      assert.equal(new Set(s.files.map((f) => f.path)).size, s.files.length, `${s.id}: repeated path`);
    }
  });

  it('builds every sample into a zip the inspector accepts, finding its one SKILL.md', async () => {
    for (const s of corpus) {
      const inspection = await inspectPackage(bufferSource(await archiveOf(s))).catch((err: unknown) => {
        throw new Error(`${s.id}: ${err instanceof Error ? err.message : String(err)}`);
      });
      const skillMd = s.files.find((f) => isSkillMdCandidate(f.path))!;
      assert.equal(inspection.skillMdPath, skillMd.path, s.id);
      assert.equal(inspection.files.length, s.files.length, s.id);
      assert.equal(typeof inspection.skillMd?.name, 'string', s.id);
    }
  });

  it('keeps benign names to the spec, apart from a few deliberate notices', async () => {
    let notices = 0;
    for (const s of benign) {
      const inspection = await inspectPackage(bufferSource(await archiveOf(s)));
      const folder = inspection.skillMdPath?.includes('/') ? inspection.skillMdPath.split('/')[0] : undefined;
      if (inspection.warnings.length > 0 || (folder !== undefined && folder !== inspection.skillMd?.name)) notices++;
    }
    assert.ok(notices > 0, 'some benign samples bend the spec');
    assert.ok(notices <= benign.length / 10, `${notices} benign samples carry SKILL.md warnings`);
  });

  it('generates the same corpus on every load', () => {
    assert.deepStrictEqual(loadCorpus(), corpus);
  });
});
