/**
 * The web console's /device page in a real browser: a person signed in approves or refuses the code a
 * `clawhub login` printed, and the waiting command's poll gets an API key of theirs, or a refusal.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { closeLeftovers, finish, launchBrowser, openSession, startRegistry, type Registry } from './harness.js';
import { ifSet } from '../helpers/hooks.js';

interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri_complete: string;
}

describe('web console: signing in a command line', () => {
  let registry: Registry;
  let browser: Browser;

  before(async () => {
    registry = await startRegistry();
    browser = await launchBrowser();
  });

  afterEach(async (t) => closeLeftovers(t.name));

  after(async () => {
    await ifSet(browser)?.close();
    await ifSet(registry)?.close();
  });

  const start = () =>
    registry.api.expect<DeviceCode>(200, 'POST', '/api/cli/device/code', { json: { scope: 'read write', label: 'CLI device login' } });
  const poll = (code: DeviceCode) =>
    registry.api.call('POST', '/api/cli/device/token', {
      json: { device_code: code.device_code, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' },
    });

  test('the code from the link is approved, and the command receives a key of the signed-in user', async () => {
    const user = await registry.api.user('fern');
    const code = await start();
    const session = await openSession(browser, registry, { cookie: user.cookie });
    const { page } = session;
    await page.goto(new URL(code.verification_uri_complete).pathname + new URL(code.verification_uri_complete).search);
    await page.getByRole('heading', { name: 'Sign in a command line' }).waitFor();
    assert.equal(await page.getByLabel('Code').inputValue(), code.user_code);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Command line signed in' }).waitFor();
    await page.getByText('clawhub: CLI device login').waitFor();

    const token = await poll(code);
    assert.equal(token.status, 200, JSON.stringify(token.body));
    const { access_token } = token.body as { access_token: string };
    const who = await registry.api.expect<{ user: { handle: string } }>(200, 'GET', '/api/v1/whoami', { key: access_token });
    assert.equal(who.user.handle, 'fern');
    await finish(session, 'device-login-approved');
  });

  test('a typed code can be refused; a wrong one is reported on the page', async () => {
    const user = await registry.api.user('gale');
    const code = await start();
    const session = await openSession(browser, registry, { cookie: user.cookie });
    const { page } = session;
    await page.goto('/device');
    await page.getByLabel('Code').fill('ZZZZ-ZZZZ');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/No login waits for the code/).waitFor();
    await page.getByLabel('Code').fill(code.user_code.toLowerCase());
    await page.getByRole('button', { name: 'Refuse' }).click();
    await page.getByRole('heading', { name: 'Sign-in refused' }).waitFor();
    const token = await poll(code);
    assert.equal(token.status, 400);
    assert.deepEqual(token.body, { error: 'access_denied' });
    await finish(session, 'device-login-refused');
  });

  test('the page asks an anonymous visitor to sign in first and comes back to the code', async () => {
    const user = await registry.api.user('hale');
    const code = await start();
    const session = await openSession(browser, registry);
    const { page } = session;
    await page.goto(`/device?code=${code.user_code}`);
    await page.waitForURL('**/signin?next=*');
    await page.getByLabel('Username or email').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in a command line' }).waitFor();
    assert.equal(await page.getByLabel('Code').inputValue(), code.user_code);
    await finish(session, 'device-login-after-sign-in');
  });
});
