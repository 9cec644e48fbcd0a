/**
 * The command line and a reviewer's decline, against a real registry: the owner of a declined draft reads the
 * reviewer's reason in `skill-registry info` (text and JSON), and no longer once a new version is published.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminSession, call, expectStatus, uniqueName } from '../helpers/client.js';
import { cli, cliBackend, parsed, removeDir, skillMdText, startRegistry, tempDir, uploader, writeTree, type Registry } from './harness.js';

const backend = cliBackend();

describe(`command line: a declined draft (${backend.name})`, () => {
  let registry: Registry;
  let home: string;
  let ownerEnv: Record<string, string>;

  before(async () => {
    registry = await startRegistry(backend);
    home = tempDir();
    const owner = await uploader(registry.t);
    ownerEnv = { SKILL_REGISTRY_URL: registry.url, SKILL_REGISTRY_TOKEN: owner.key };
  });
  after(async () => {
    await registry.close();
    removeDir(home);
  });

  it('info shows the owner the reviewer’s reason and when, until a new version is published', async () => {
    const slug = uniqueName('declined-');
    const folder = writeTree(`${home}/src/${slug}`, { 'SKILL.md': skillMdText(slug) });
    const first = await cli(['publish', folder, '--version', '1.0.0'], { home, env: ownerEnv });
    assert.equal(first.code, 0, first.stderr);

    const reason = 'The description does not say which spreadsheet formats it reads.\nAdd an example too.';
    const declined = await call(registry.t, 'POST', `/v1/admin/skills/${slug}/decline`, await adminSession(registry.t), { reason });
    const at = (JSON.parse(expectStatus(declined, 200).body) as { declined: { at: string } }).declined.at;

    const human = await cli(['info', slug], { home, env: ownerEnv });
    assert.equal(human.code, 0, human.stderr);
    const when = at.replace('T', ' ').replace(/\.\d+Z$/, '');
    assert.match(
      human.stdout,
      new RegExp(
        `^Changes requested by a reviewer on ${when} UTC:\\n  The description does not say which spreadsheet formats it reads\\.\\n  Add an example too\\.\\n` +
          'Publish a new version \\(skill-registry publish\\) to send it back for review\\.$',
        'm',
      ),
    );
    const json = parsed<{ skill: { declined: { reason: string; at: string } | null } }>(
      await cli(['info', slug, '--json'], { home, env: ownerEnv }),
    );
    assert.deepEqual(json.skill.declined, { reason, at });

    const second = await cli(['publish', folder, '--version', '1.0.1'], { home, env: ownerEnv });
    assert.equal(second.code, 0, second.stderr);
    const after = await cli(['info', slug], { home, env: ownerEnv });
    assert.equal(after.code, 0, after.stderr);
    assert.doesNotMatch(after.stdout, /Changes requested/);
    assert.equal(
      parsed<{ skill: { declined: unknown } }>(await cli(['info', slug, '--json'], { home, env: ownerEnv })).skill.declined,
      null,
    );
  });
});
