/**
 * The web console in a real browser, from a developer's side: register, create a skill, upload packages
 * (accepted and refused), manage API keys, read call logs.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { escapingPackage, pdfToolsPackage } from './fixtures.js';
import { closeLeftovers, eventually, finish, launchBrowser, openSession, screenshot, startRegistry, type Registry } from './harness.js';
import { ifSet } from '../helpers/hooks.js';

describe('web console: developer', () => {
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

  test('a developer registers, creates a skill, uploads a package and sees its files and SKILL.md', async () => {
    const session = await openSession(browser, registry);
    const { page } = session;

    await page.goto('/');
    await page.getByRole('link', { name: 'Register' }).click();
    await page.getByLabel('Username').fill('dana');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    // The server's account rules, run in the browser before anything is sent.
    await page.getByText('must be an email address like name@example.com').waitFor();
    await page.getByText('must be at least 8 characters').waitFor();
    await page.getByLabel('Email').fill('dana@example.com');
    await page.getByLabel('Password').fill('dana-password-1');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL('**/me/skills');
    await page.getByText('You have no skills yet').waitFor();
    assert.match(await page.getByRole('navigation', { name: 'Main' }).innerText(), /dana/);

    await page.getByRole('link', { name: 'Create your first skill' }).click();
    await page.waitForURL('**/me/skills/new');
    await page.getByLabel('Name', { exact: true }).fill('PDF Tools');
    assert.match(await page.getByText(/Left empty, it will be “pdf-tools”/).innerText(), /pdf-tools/);
    await page.getByLabel('Description').fill('Extract text and tables from PDF files, page by page.');
    await page.getByLabel('Category').fill('documents');
    await page.getByLabel('Tags').fill('pdf, Office, pdf');
    await page.getByRole('list', { name: 'Tags as they will be saved' }).getByText('office').waitFor();
    await page.getByRole('radio', { name: /GitHub repository/ }).check();
    // Source rules checked as the URL is typed: the same function the server runs.
    await page.getByLabel('Source URL').fill('https://gitlab.com/acme/pdf-tools');
    await page.getByText(/must be https:\/\/github\.com\/<owner>\/<repo>/).waitFor();
    assert.equal(await page.getByLabel('Source URL').getAttribute('aria-invalid'), 'true');
    await page.getByLabel('Source URL').fill('https://github.com/acme/pdf-tools');
    await eventually(async () => (await page.getByLabel('Source URL').getAttribute('aria-invalid')) === null, 'the source URL is accepted');
    await page.getByRole('button', { name: 'Create draft' }).click();

    await page.waitForURL('**/me/skills/pdf-tools?tab=upload');
    await page.getByRole('heading', { name: 'PDF Tools', level: 1 }).waitFor();
    assert.match(await page.locator('.page-header .badges').innerText(), /Draft/);

    // A package big enough, and a network slow enough, for the progress bar to show real progress.
    const pkg = await pdfToolsPackage({ padding: 400 * 1024 });
    const cdp = await session.context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    await page.locator('input[type=file]').setInputFiles({ name: 'pdf-tools.zip', mimeType: 'application/zip', buffer: pkg.archive });
    await page.getByText('pdf-tools.zip').waitFor();
    await page.getByLabel('Version', { exact: true }).fill('v1');
    await page.getByText('must be a strict semver version').waitFor();
    await page.getByLabel('Version', { exact: true }).fill('1.0.0');
    await page.getByLabel('Changelog').fill('First release: text and tables.');
    await page.getByRole('button', { name: 'Upload version' }).click();
    const progress = page.getByRole('progressbar');
    await progress.waitFor();
    await eventually(async () => {
      const value = Number((await progress.getAttribute('value').catch(() => null)) ?? '0');
      return value > 0 && value < 100;
    }, 'the progress bar shows partial progress');
    await page.getByText('Version 1.0.0 uploaded', { exact: true }).waitFor({ timeout: 30_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByText('Latest v1.0.0').waitFor();

    await page.getByRole('link', { name: 'See its SKILL.md' }).click();
    await page.waitForURL('**/skills/pdf-tools?version=1.0.0');
    const markdown = page.locator('.markdown');
    await markdown.getByRole('heading', { name: 'Quick start' }).waitFor();
    await markdown.getByRole('table').waitFor();
    // The package's script is shown as text and never runs; its javascript: link has no target.
    await markdown.getByText('<script>window.__skillScriptRan = true</script>').waitFor();
    assert.equal(
      await markdown.getByText('A link that must not run').evaluate((el: { closest(selector: string): unknown }) => el.closest('a')),
      null,
    );
    assert.equal(await page.evaluate('typeof window.__skillScriptRan'), 'undefined');
    // Front matter beyond name and description is shown as facts.
    assert.match(await page.locator('.front-matter').innerText(), /allowed-tools\s+Bash Read/);

    await page.getByRole('link', { name: 'Files' }).click();
    await page.getByRole('link', { name: /extract\.py/ }).click();
    await page.getByText('def extract(path):').waitFor();
    assert.match(page.url(), /tab=files&file=scripts%2Fextract\.py|file=scripts%2Fextract\.py/);
    await page.getByRole('link', { name: /sample\.bin/ }).click();
    await page.getByText('Binary file').waitFor();

    await page.getByRole('link', { name: /Versions/ }).click();
    const version = page.locator('.version-item').first();
    await version.getByText('First release: text and tables.').waitFor();
    assert.match(await version.innerText(), new RegExp(`SHA-256\\s+[0-9a-f]{64}`));
    // A draft is not downloadable by its owner; the console says so instead of offering a broken button.
    assert.equal(await page.getByRole('link', { name: /^Download v1\.0\.0/ }).count(), 0);
    await page.getByText('Downloads open once an administrator publishes this skill.').waitFor();

    await finish(session, 'developer-publishes-a-skill');
  });

  test('a refused upload shows its errors entry by entry; the draft is then edited and deleted', async () => {
    const owner = await registry.api.user('erin');
    await registry.api.skill(owner.cookie, { name: 'Escape Artist', slug: 'escape-artist', description: 'Tries to leave its folder.' });
    const session = await openSession(browser, registry, { cookie: owner.cookie });
    const { page } = session;
    await page.goto('/me/skills/escape-artist?tab=upload');
    await page.getByRole('heading', { name: 'Escape Artist', level: 1 }).waitFor();

    // Checked in the browser: not an archive at all, so nothing is sent.
    let uploads = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/versions')) uploads += 1;
    });
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just some notes\n') });
    await page.getByText('This is not a zip or a gzip-compressed tar archive.').waitFor();
    await page.getByLabel('Version', { exact: true }).fill('1.0.0');
    await page.getByRole('button', { name: 'Upload version' }).click();
    assert.equal(uploads, 0);

    // Refused by the registry: every problem is listed with the archive entry at fault.
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'escape.tar.gz', mimeType: 'application/gzip', buffer: await escapingPackage() });
    await page.getByText(/escape\.tar\.gz.*tar\.gz/).waitFor();
    await page.getByRole('button', { name: 'Check package only' }).click();
    await page.getByText('This package would be refused').waitFor();
    await page.getByRole('button', { name: 'Upload version' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The registry refused this upload' });
    await alert.waitFor();
    assert.match(await alert.locator('code.entry').first().innerText(), /\.\.\/escape\.txt/);
    assert.equal(uploads, 1);
    const versions = await registry.api.expect<{ total: number }>(200, 'GET', '/v1/skills/escape-artist/versions', {
      cookie: owner.cookie,
    });
    assert.equal(versions.total, 0);
    await screenshot(page, 'refused-upload');

    // Edit the metadata: the tag rule is checked as it is typed, and only the changed fields are sent.
    await page.getByRole('link', { name: 'Details' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Escape Artist Deluxe');
    await page.getByLabel('Tags').fill('archives, Bad Tag!');
    await page.getByText(/"Tag!" is not a valid tag/).waitFor();
    await page.getByLabel('Tags').fill('archives, security');
    const patch = page.waitForRequest((request) => request.method() === 'PATCH');
    await page.getByRole('button', { name: 'Save details' }).click();
    assert.deepEqual((await patch).postDataJSON(), { name: 'Escape Artist Deluxe', tags: ['archives', 'security'] });
    await page.getByRole('heading', { name: 'Escape Artist Deluxe', level: 1 }).waitFor();

    // Delete the draft, after confirming.
    await page.getByRole('link', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete this draft' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “Escape Artist Deluxe”?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Delete this draft' }).click();
    await dialog.getByRole('button', { name: 'Delete draft' }).click();
    await page.waitForURL('**/me/skills');
    await page.getByText('You have no skills yet').waitFor();
    await registry.api.expect(404, 'GET', '/v1/skills/escape-artist', { cookie: owner.cookie });

    await finish(session, 'draft-deleted');
  });

  test('a developer creates an API key, sees its secret once, and revokes it', async () => {
    const owner = await registry.api.user('kai');
    const session = await openSession(browser, registry, { cookie: owner.cookie });
    const { page } = session;
    await page.goto('/me/keys');
    await page.getByText('No keys yet').waitFor();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Give the key a name').waitFor();
    await page.getByLabel('Name').fill('ci-release');
    await page.getByLabel('Expires after').selectOption({ label: '30 days' });
    await page.getByRole('button', { name: 'Create key' }).click();

    const secret = (await page.getByTestId('new-api-key').innerText()).trim();
    assert.match(secret, /^skreg_[A-Za-z0-9]{44}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret);
    // The key works, and it never reached the browser's storage.
    const me = await registry.api.expect<{ user: { username: string }; auth: { kind: string } }>(200, 'GET', '/v1/me', { key: secret });
    assert.equal(me.user.username, 'kai');
    const stored = await page.evaluate<string>(
      'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie',
    );
    assert.ok(!stored.includes(secret), 'the secret must not be stored by the console');

    const row = page.getByRole('row', { name: /ci-release/ });
    await row.waitFor();
    assert.match(await row.innerText(), /skill:upload/);
    await page.reload();
    await row.waitFor();
    assert.equal(await page.getByTestId('new-api-key').count(), 0, 'the secret is shown only once');

    await row.getByRole('button', { name: /Revoke/ }).click();
    const dialog = page.getByRole('dialog', { name: /Revoke “ci-release”/ });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('No keys yet').waitFor();
    await eventually(async () => (await registry.api.call('GET', '/v1/me', { key: secret })).status === 401, 'the revoked key is refused');

    await finish(session, 'api-keys');
  });

  test('a developer reads their call logs, filters them and looks up one call', async () => {
    const owner = await registry.api.user('lou');
    const key = await registry.api.expect<{ key: string }>(201, 'POST', '/v1/me/api-keys', {
      cookie: owner.cookie,
      json: { name: 'laptop', scopes: ['skill:upload'] },
    });
    await registry.api.expect(200, 'GET', '/v1/me', { key: key.key });
    const missing = await registry.api.call('GET', '/v1/skills/no-such-skill', { key: key.key });
    assert.equal(missing.status, 404);
    const requestId = missing.headers.get('x-request-id')!;

    const session = await openSession(browser, registry, { cookie: owner.cookie });
    const { page } = session;
    await page.goto('/me/logs');
    const table = page.getByRole('table');
    await table.getByText('/v1/skills/no-such-skill').waitFor();
    const missingRow = page.getByRole('row', { name: /no-such-skill/ });
    assert.match(await missingRow.innerText(), /GET[\s\S]*404[\s\S]*Key “laptop”/);
    assert.equal(await missingRow.locator('.http-status.http-client').innerText(), '404');

    await page.getByLabel('Status').selectOption('4xx');
    await page.waitForURL(/status=4xx/);
    await eventually(async () => {
      const statuses = await table.locator('tbody .http-status').allInnerTexts();
      return statuses.length > 0 && statuses.every((s) => s.startsWith('4'));
    }, 'only 4xx calls are listed');

    await page.getByRole('textbox', { name: 'Request id' }).fill(requestId);
    await page.getByRole('button', { name: 'Look up' }).click();
    const detail = page.locator('.call-detail');
    await detail.getByText(requestId).waitFor();
    assert.match(await detail.innerText(), /\/v1\/skills\/:skillId/);

    await page.getByRole('textbox', { name: 'Request id' }).fill('0190aaaa-0000-7000-8000-000000000000');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /0190aaaa|not found|No call/i })
      .waitFor();

    await finish(session, 'call-logs');
  });
});
