/**
 * The web console's webhooks and notifications in a real browser: a subscription made (its secret shown once), a test
 * ping delivered to a receiver on 127.0.0.1 and shown in the log, a subscription the registry disabled shown with its
 * reason and announced by the header's unread count, turned back on; at desktop width and on a 390 px phone. The job
 * runner's queue is run by the test (QUEUE_POLL_MS is a day), with the clock moved past each retry's backoff.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { withStoppedClock } from '../helpers/clock.js';
import { ifSet } from '../helpers/hooks.js';
import { closeLeftovers, finish, launchBrowser, openSession, screenshot, startRegistry, type Registry } from './harness.js';

const PHONE = { width: 390, height: 844 };
const HOUR = 60 * 60 * 1000;

async function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');
}

/** A receiver: `/broken…` answers 503, everything else 200; every request kept. */
async function receiver(): Promise<{ url: string; received: { path: string; headers: IncomingHttpHeaders }[]; close(): Promise<void> }> {
  const received: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers });
      response.writeHead(path.startsWith('/broken') ? 503 : 200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('web console: webhooks and notifications', { timeout: 180_000 }, () => {
  let registry: Registry;
  let browser: Browser;
  let hooks: Awaited<ReturnType<typeof receiver>>;

  before(async () => {
    hooks = await receiver();
    registry = await startRegistry({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QUEUE_POLL_MS: '86400000', WEBHOOK_DISABLE_AFTER: '1' });
    browser = await launchBrowser();
  });

  afterEach(async (t) => closeLeftovers(t.name));

  after(async () => {
    await ifSet(browser)?.close();
    await ifSet(registry)?.close();
    await ifSet(hooks)?.close();
  });

  const runQueue = async () => assert.equal(await registry.app.runtime.jobs.runNow('queue'), 'success');
  /** Every attempt of what is queued, each retry's backoff passed on a stopped clock (no waiting). */
  const failForGood = () =>
    withStoppedClock(async (advance) => {
      for (let i = 0; i < 6; i += 1) {
        await runQueue();
        advance(2 * HOUR);
      }
    });

  test('a user adds a webhook, sees its secret once, pings it, and turns it back on after the registry disabled it', async () => {
    const user = await registry.api.user('wendy');
    const session = await openSession(browser, registry, { cookie: user.cookie });
    const { page } = session;

    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL('**/webhooks');
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No webhooks yet').waitFor();
    assert.equal(await page.getByTestId('unread-count').count(), 0, 'nothing unread yet');

    // Refused by the registry's address rules: the problem is shown as the other pages show it.
    await page.getByLabel('Payload URL').fill('http://10.1.2.3/hook');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /public|refused|10\.1\.2\.3/i })
      .waitFor();

    await page.getByLabel('Payload URL').fill(`${hooks.url}/ok`);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = (await page.getByTestId('new-webhook-secret').innerText()).trim();
    assert.match(secret, /^whsec_/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    assert.equal(await page.getByTestId('new-webhook-secret').count(), 0);
    await page.reload();
    const card = page.getByTestId('webhook').filter({ hasText: `${hooks.url}/ok` });
    await card.waitFor();
    assert.ok(!(await page.content()).includes(secret), 'the secret is not shown again');
    await card.getByText('Active', { exact: true }).waitFor();

    // A test ping, sent by the queue, delivered to the receiver and shown in the log.
    await card.getByRole('button', { name: 'Send test ping' }).click();
    await card.getByTestId('delivery').first().waitFor();
    await runQueue();
    const ping = hooks.received.find((r) => r.path === '/ok');
    assert.equal(ping?.headers['skill-registry-event'], 'webhook.ping');
    await card.getByRole('button', { name: 'Refresh' }).click();
    const delivered = card.locator('[data-testid=delivery][data-state=delivered]');
    await delivered.waitFor();
    assert.match(await delivered.innerText(), /webhook\.ping[\s\S]*200/);

    // A second one whose receiver is down: the registry disables it after every attempt fails.
    const broken = await registry.api.expect<{ id: string }>(201, 'POST', '/v1/webhooks', {
      cookie: user.cookie,
      json: { url: `${hooks.url}/broken` },
    });
    await registry.api.expect(202, 'POST', `/v1/webhooks/${broken.id}/test`, { cookie: user.cookie });
    await failForGood();
    assert.equal(hooks.received.filter((r) => r.path === '/broken').length, 6);

    await page.reload();
    assert.equal((await page.getByTestId('unread-count').innerText()).trim(), '1');
    const brokenCard = page.getByTestId('webhook').filter({ hasText: `${hooks.url}/broken` });
    await brokenCard.getByText('Disabled by the registry', { exact: true }).waitFor();
    const alert = brokenCard.getByTestId('disabled-by-registry');
    assert.match(await alert.innerText(), /Disabled after 1 deliveries in a row failed every attempt/);
    assert.match(await alert.innerText(), /Disabled by the registry\s+on /);

    // The notification: read from the header, it leads to the subscription, which is turned back on.
    await page.getByRole('link', { name: 'Notifications, 1 unread' }).click();
    await page.waitForURL('**/notifications');
    const note = page.getByTestId('notification');
    await note.getByText(`Webhook disabled: ${hooks.url}/broken`).waitFor();
    assert.match(await note.innerText(), /turn it back on/);
    await note.getByRole('link', { name: 'Open the webhook' }).click();
    await page.waitForURL(`**/webhooks?id=${broken.id}`);
    const focused = page.locator('.webhook-card.focused');
    await focused.getByText(`${hooks.url}/broken`).waitFor();
    await focused.locator('[data-testid=delivery][data-state=failed]').waitFor();
    await page.getByRole('link', { name: 'Notifications', exact: true }).waitFor();
    await focused.getByRole('button', { name: 'Turn back on' }).click();
    await focused.getByText('Active', { exact: true }).waitFor();
    assert.equal(await focused.getByTestId('disabled-by-registry').count(), 0);
    const after = await registry.api.expect<{ active: boolean; disabled_reason: string | null }>(200, 'GET', `/v1/webhooks/${broken.id}`, {
      cookie: user.cookie,
    });
    assert.deepEqual([after.active, after.disabled_reason], [true, null]);

    // Turned off by its owner: shown as such, not as disabled by the registry; then deleted.
    await card.getByRole('button', { name: 'Turn off' }).click();
    await card.getByText('Turned off', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete webhook' }).click();
    await card.waitFor({ state: 'detached' });
    await finish(session, 'console-webhooks-desktop');
  });

  test('the webhooks and notifications pages fit a phone', async () => {
    const user = await registry.api.user('phoebe');
    const hook = await registry.api.expect<{ id: string }>(201, 'POST', '/v1/webhooks', {
      cookie: user.cookie,
      json: { url: `${hooks.url}/broken/${'very-long-path-segment-'.repeat(6)}` },
    });
    await registry.api.expect(202, 'POST', `/v1/webhooks/${hook.id}/test`, { cookie: user.cookie });
    await failForGood();

    const session = await openSession(browser, registry, { cookie: user.cookie, viewport: PHONE });
    const { page } = session;
    await page.goto(`/webhooks?id=${hook.id}`);
    await page.getByTestId('disabled-by-registry').waitFor();
    await page.locator('[data-testid=delivery][data-state=failed]').waitFor();
    // The unread count shows outside the collapsed menu.
    await page.getByRole('link', { name: 'Notifications, 1 unread' }).waitFor();
    assert.equal(await overflowsSideways(page), false, 'the webhooks page fits at 390 px');
    await screenshot(page, 'console-webhooks-phone-list');
    await page.getByRole('link', { name: 'Notifications, 1 unread' }).click();
    await page.getByTestId('notification').waitFor();
    assert.equal(await overflowsSideways(page), false, 'the notifications page fits at 390 px');
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByText('All read.').waitFor();
    await page.getByRole('link', { name: 'Notifications', exact: true }).waitFor();
    await finish(session, 'console-webhooks-phone');
  });
});
