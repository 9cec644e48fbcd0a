import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { adminSession, call, expectStatus, json, uniqueName } from '../helpers/client.js';
import { clawhubHarness, lastLine, type Harness } from './clawhub-harness.js';

/**
 * The real `clawhub` command line (npm `clawhub` 0.23.3, pinned as in clawhub-cli.test.ts) managing skills on a
 * registry on 127.0.0.1: explore with each sort, a transfer requested by one user and accepted by another, a rename
 * then an install by the old name, and publisher create. clawhub-refusals-cli.test.ts has delete, scan download and
 * the commands without a counterpart.
 */

describe('the `clawhub` command managing skills on the registry', { timeout: 600_000 }, () => {
  let h: Harness;

  before(async () => {
    h = await clawhubHarness('clawhub-manage-cli-', adminSession);
  });
  after(() => h.registry.close());

  it('explore lists skills with their latest version under each sort, and says plainly that there is no rating', async () => {
    const { user, home, work } = await h.signedIn();
    const slug = await h.published(user, 'explored-');
    for (const sort of ['newest', 'updated', 'downloads', 'installs', 'trending']) {
      const explored = await h.clawhub(['explore', '--sort', sort, '--limit', '100'], home, work);
      assert.equal(explored.code, 0, `${sort}: ${explored.output}`);
      const line = explored.output.split('\n').find((l) => l.startsWith(slug));
      assert.ok(line, `${sort} lists the skill: ${explored.output}`);
      assert.match(line, /v1\.0\.0/, `${sort} shows its latest version`);
    }
    const rating = await h.clawhub(['explore', '--sort', 'rating'], home, work);
    assert.notEqual(rating.code, 0, rating.output);
    assert.match(lastLine(rating.output), /This registry keeps no stars, so it cannot sort by rating/);
  });

  it('a transfer requested by the owner is listed for and accepted by the other user', async () => {
    const from = await h.signedIn();
    const to = await h.signedIn();
    const slug = await h.published(from.user, 'handed-');
    const requested = await h.clawhub(['transfer', 'request', slug, `@${to.user.username}`, '--yes'], from.home, from.work);
    assert.equal(requested.code, 0, requested.output);
    assert.match(requested.output, new RegExp(`Transfer requested for ${slug} to @${to.user.username}`));
    const outgoing = await h.clawhub(['transfer', 'list', '--outgoing'], from.home, from.work);
    assert.equal(outgoing.code, 0, outgoing.output);
    assert.match(outgoing.output, new RegExp(`${slug} -> @${to.user.username} \\(expires in \\d+d\\)`));
    const incoming = await h.clawhub(['transfer', 'list'], to.home, to.work);
    assert.equal(incoming.code, 0, incoming.output);
    assert.match(incoming.output, new RegExp(`${slug} -> @${from.user.username}`));
    const accepted = await h.clawhub(['transfer', 'accept', slug, '--yes'], to.home, to.work);
    assert.equal(accepted.code, 0, accepted.output);
    assert.match(accepted.output, new RegExp(`Transfer accepted \\(${slug}\\)`));
    const skill = json<{ owner: { handle: string } }>(expectStatus(await call(h.t, 'GET', `/v1/skills/${slug}`), 200));
    assert.equal(skill.owner.handle, to.user.username);
    const again = await h.clawhub(['transfer', 'accept', slug, '--yes'], to.home, to.work);
    assert.notEqual(again.code, 0, again.output);
    assert.match(lastLine(again.output), /No open transfer of ".+" is offered to you\./);
  });

  it('a renamed skill installs by its old name', async () => {
    const { user, home, work } = await h.signedIn();
    const slug = await h.published(user, 'before-');
    const renamed = `${slug}-after`;
    const done = await h.clawhub(['skill', 'rename', slug, renamed, '--yes'], home, work);
    assert.equal(done.code, 0, done.output);
    assert.match(done.output, new RegExp(`Renamed ${slug} to ${renamed}`));
    const installed = await h.clawhub(['install', slug], home, work);
    assert.equal(installed.code, 0, installed.output);
    assert.equal(readFileSync(path.join(work, 'skills', slug, 'reference/notes.md'), 'utf8'), 'notes\n');
    const byNew = await h.clawhub(['inspect', renamed], home, work);
    assert.equal(byNew.code, 0, byNew.output);
  });

  it('publisher create makes an organisation the user owns', async () => {
    const { user, home, work } = await h.signedIn();
    const handle = uniqueName('team-');
    const created = await h.clawhub(['publisher', 'create', handle, '--display-name', 'A team'], home, work);
    assert.equal(created.code, 0, created.output);
    assert.match(created.output, new RegExp(`OK. Created publisher @${handle}.`));
    const org = json<{ role: string }>(expectStatus(await call(h.t, 'GET', `/v1/orgs/${handle}`, user.session), 200));
    assert.equal(org.role, 'owner');
  });
});
