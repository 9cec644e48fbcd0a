import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, ProblemError, type ChangeEntry, type RegistryClient } from '@skill-registry/client';
import { createSkill } from '../helpers/client.js';
import { cliBackend, startRegistry, uploader, type Registry } from './harness.js';

describe('typed client: the change feed and webhooks', () => {
  let registry: Registry;
  let client: RegistryClient;
  let owner: Awaited<ReturnType<typeof uploader>>;
  before(async () => {
    registry = await startRegistry(cliBackend(), { QUEUE_POLL_MS: '86400000' });
    owner = await uploader(registry.t);
    client = createClient({ baseUrl: registry.url, apiKey: owner.key });
  });
  after(() => registry.close());

  it('follows the feed page after page and resumes from the cursor it returned', async () => {
    const first = await createSkill(registry.t, { key: owner.key });
    const second = await createSkill(registry.t, { key: owner.key });
    const seen: ChangeEntry[] = [];
    const pages = client.changes.follow(undefined, 1);
    let step = await pages.next();
    while (step.done !== true) {
      seen.push(step.value);
      step = await pages.next();
    }
    const cursor = step.value;
    assert.deepEqual(
      seen.filter((e) => e.type === 'skill.created').map((e) => e.skill.id),
      [first.id, second.id],
    );
    assert.deepEqual((await client.changes.list({ since: cursor })).items, []);
    const third = await createSkill(registry.t, { key: owner.key });
    assert.deepEqual(
      (await client.changes.list({ since: cursor })).items.map((e) => [e.type, e.skill.id]),
      [['skill.created', third.id]],
    );
  });

  it('manages a webhook', async () => {
    const created = await client.webhooks.create({ url: 'https://93.184.216.34/hooks', events: ['version.uploaded'] });
    assert.match(created.secret ?? '', /^whsec_/);
    assert.deepEqual(
      (await client.webhooks.list()).map((w) => w.id),
      [created.id],
    );
    const off = await client.webhooks.update(created.id, { active: false });
    assert.equal(off.active, false);
    assert.deepEqual(await client.webhooks.deliveries(created.id), []);
    await client.webhooks.delete(created.id);
    await assert.rejects(client.webhooks.get(created.id), (error) => error instanceof ProblemError && error.code === 'webhook_not_found');
    await assert.rejects(
      client.webhooks.create({ url: 'http://169.254.169.254/latest' }),
      (error) => error instanceof ProblemError && error.code === 'webhook_url_refused',
    );
  });

  it("reads and marks the caller's notifications", async () => {
    const empty = await client.me.notifications.list({ page: 1, page_size: 10 });
    assert.deepEqual([empty.items, empty.total, empty.unread, empty.page_size], [[], 0, 0, 10]);
    assert.equal(await client.me.notifications.readAll(), 0);
    await assert.rejects(
      client.me.notifications.read('01a00000-0000-7000-8000-000000000000'),
      (error) => error instanceof ProblemError && error.status === 404 && error.code === 'notification_not_found',
    );
  });
});
