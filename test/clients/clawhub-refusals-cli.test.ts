import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { skillMd } from '../helpers/archives.js';
import { adminSession, call, expectStatus, uniqueName } from '../helpers/client.js';
import { clawhubHarness, entriesOf, lastLine, type Harness } from './clawhub-harness.js';

/**
 * The real `clawhub` command line (npm `clawhub` 0.23.3, pinned as in clawhub-cli.test.ts): delete of a draft and
 * what the registry answers to delete, hide, undelete and unhide of a published skill or a version, scan download,
 * and commands the registry has no counterpart for, each printing one clear line rather than a missing endpoint.
 */

describe('the `clawhub` command: deleting, scan reports and what the registry does not have', { timeout: 600_000 }, () => {
  let h: Harness;

  before(async () => {
    h = await clawhubHarness('clawhub-refusals-cli-', adminSession);
  });
  after(() => h.registry.close());

  it('delete removes a draft; a published skill, a version, undelete and hide each say what the registry offers', async () => {
    const { user, home, work } = await h.signedIn();
    const draft = uniqueName('drafted-');
    const folder = path.join(work, draft);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'SKILL.md'), skillMd(draft, 'A draft to delete.'));
    const publishedDraft = await h.clawhub(['publish', folder, '--version', '1.0.0', '--changelog', 'First.'], home, work);
    assert.equal(publishedDraft.code, 0, publishedDraft.output);
    const deleted = await h.clawhub(['delete', draft, '--yes'], home, work);
    assert.equal(deleted.code, 0, deleted.output);
    assert.match(deleted.output, new RegExp(`OK. Deleted ${draft}`));
    expectStatus(await call(h.t, 'GET', `/v1/skills/${draft}`, user.session), 404);

    const slug = await h.published(user, 'staying-');
    const refusals: [string[], RegExp][] = [
      [['delete', slug, '--yes'], /this registry deletes only drafts/],
      [['hide', slug, '--yes'], /this registry deletes only drafts/],
      [['delete', slug, '--version', '1.0.0', '--yes'], /keeps every version/],
      [['undelete', slug, '--yes'], /nothing to undelete/],
      [['unhide', slug, '--yes'], /nothing to undelete/],
      [['undelete', slug, '--version', '1.0.0', '--yes'], /no version to restore/],
    ];
    for (const [args, text] of refusals) {
      const run = await h.clawhub(args, home, work);
      assert.notEqual(run.code, 0, `${args.join(' ')}: ${run.output}`);
      assert.match(lastLine(run.output), text, `${args.join(' ')}: ${run.output}`);
    }
  });

  it("scan download saves the version's scan report", async () => {
    const { user, home, work } = await h.signedIn();
    const slug = await h.published(user, 'scanned-');
    const saved = await h.clawhub(['scan', 'download', slug, '--version', '1.0.0', '-o', 'report.zip'], home, work);
    assert.equal(saved.code, 0, saved.output);
    const file = path.join(work, 'report.zip');
    assert.ok(existsSync(file), saved.output);
    assert.deepEqual((await entriesOf(readFileSync(file))).sort(), ['README.md', 'manifest.json', 'scan-report.json']);
  });

  it('commands without a counterpart print one clear line, not a missing endpoint', async () => {
    const { user, home, work } = await h.signedIn();
    const slug = await h.published(user, 'plain-');
    const cases: [string[], RegExp][] = [
      [['skill', 'tag', slug, '1.0.0', '--yes'], /no movable tags/],
      [['skill', 'merge', slug, `${slug}-other`, '--yes'], /cannot be merged/],
      [['skill', 'verify', slug], /signs no verification cards/],
      [['package', 'explore'], /holds skills only/],
      [['star', slug, '--yes'], /keeps no stars/],
    ];
    for (const [args, text] of cases) {
      const run = await h.clawhub(args, home, work);
      assert.notEqual(run.code, 0, `${args.join(' ')}: ${run.output}`);
      assert.match(lastLine(run.output), text, `${args.join(' ')}: ${run.output}`);
      assert.doesNotMatch(run.output, /There is no .* endpoint/);
    }
  });
});
