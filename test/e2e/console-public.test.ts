/**
 * The web console in a real browser, from the visitor's and the administrator's side: search and
 * download, feedback reaching the owner, moderation from the review queue, user administration, and the
 * layout at phone width.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { ADMIN } from '../helpers/app.js';
import { CATALOG, pdfToolsPackage, seedCatalog } from './fixtures.js';
import {
  closeLeftovers,
  eventually,
  finish,
  launchBrowser,
  openSession,
  screenshot,
  startRegistry,
  type Registry,
  type SeedUser,
} from './harness.js';
import { ifSet } from '../helpers/hooks.js';

describe('web console: visitors and administrators', () => {
  let registry: Registry;
  let browser: Browser;
  let owner: SeedUser;
  let adminCookie: string;
  let sha256: Record<string, string>;

  before(async () => {
    registry = await startRegistry();
    browser = await launchBrowser();
    adminCookie = await registry.api.admin();
    ({ owner, sha256 } = await seedCatalog(registry.api, adminCookie));
  });

  afterEach(async (t) => closeLeftovers(t.name));

  after(async () => {
    await ifSet(browser)?.close();
    await ifSet(registry)?.close();
  });

  test('a visitor searches, shares the search, and downloads a package', async () => {
    const session = await openSession(browser, registry);
    const { page } = session;
    await page.goto('/');
    await page.getByRole('heading', { name: `${CATALOG.length} skills` }).waitFor();
    assert.equal(await page.locator('.skill-card').count(), CATALOG.length);

    // Results follow the typing without a submit; the query lands in the URL.
    await page.getByRole('searchbox', { name: 'Search skills' }).fill('spreadsheet');
    await page.waitForURL(/\?q=spreadsheet/);
    await page.getByRole('heading', { name: '1 skill for “spreadsheet”' }).waitFor();
    const card = page.locator('.skill-card').first();
    assert.match(await card.innerText(), /Spreadsheet Wizard[\s\S]*xlsx[\s\S]*v1\.0\.0/);
    // The words that matched are marked, and a search is ordered best match first.
    assert.equal(await card.locator('h3 mark').innerText(), 'Spreadsheet');
    assert.equal(await page.getByLabel('Sort').inputValue(), 'relevance');
    // Words no skill holds all of: the closest matches, said to be partial.
    await page.getByRole('searchbox', { name: 'Search skills' }).fill('spreadsheet zeppelin');
    await page.getByText('No skill matches every word; these match some of them.').waitFor();

    await page.getByRole('searchbox', { name: 'Search skills' }).fill('');
    // The box reflects the URL, which the click changes; the render follows within a frame.
    await page.getByRole('checkbox', { name: 'Featured only' }).click();
    await page.waitForURL(/featured=true/);
    // Exactly: while the cleared search is still on its way, the heading of the query before it ("1 skill for …")
    // would match too.
    await page.getByRole('heading', { name: '1 skill', exact: true }).waitFor();
    assert.match(await page.locator('.skill-card').first().innerText(), /PDF Tools[\s\S]*Featured/);
    await page.getByRole('checkbox', { name: 'Featured only' }).click();
    await page.getByRole('heading', { name: `${CATALOG.length} skills` }).waitFor();
    await page.getByLabel('Sort').selectOption('downloads');
    await page.waitForURL(/sort=downloads/);
    await eventually(
      async () => (await page.locator('.skill-card h3').first().innerText()) === 'PDF Tools',
      'the most downloaded skill comes first',
    );

    // A shared link reproduces the search, filters included.
    const shared = await session.context.newPage();
    await shared.goto('/?q=pdf&tags=office&sort=downloads');
    await shared.getByRole('heading', { name: '1 skill for “pdf”' }).waitFor();
    assert.equal(await shared.getByRole('searchbox', { name: 'Search skills' }).inputValue(), 'pdf');
    assert.equal(await shared.getByRole('textbox', { name: 'Tags' }).inputValue(), 'office');
    await shared.close();

    await page.goto('/?q=pdf');
    await page.getByRole('link', { name: 'PDF Tools' }).click();
    await page.waitForURL('**/skills/pdf-tools');
    await page.locator('.markdown').getByRole('heading', { name: 'Quick start' }).waitFor();
    assert.match(await page.locator('.facts').innerText(), /GitHub repository\s+github\.com\/acme\/pdf-tools/);
    const before = (await registry.api.expect<{ total_downloads: number }>(200, 'GET', '/v1/skills/pdf-tools/stats')).total_downloads;

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /^Download v1\.0\.0/ }).click()]);
    assert.equal(download.suggestedFilename(), 'pdf-tools-1.0.0.zip');
    const bytes = await readFile(await download.path());
    assert.equal(createHash('sha256').update(bytes).digest('hex'), sha256['pdf-tools']);

    await page.getByRole('link', { name: 'Downloads' }).click();
    const caption = page.locator('.chart-caption');
    await eventually(
      async () => (await caption.innerText()).startsWith(`${before + 1} downloads`),
      'the download shows in the chart',
      15_000,
    );
    assert.equal(await page.locator('.chart-bar').count(), 30);
    await page.getByRole('button', { name: 'Last 90 days' }).click();
    await page.waitForURL(/days=90/);
    await eventually(async () => (await page.locator('.chart-bar').count()) === 90, 'the chart shows 90 days');

    await finish(session, 'visitor-searches-and-downloads');
  });

  test('feedback a visitor submits appears for the owner with the rating summary', async () => {
    const visitor = await openSession(browser, registry);
    await visitor.page.goto('/skills/slide-deck-builder?tab=feedback');
    await visitor.page.getByRole('heading', { name: 'Rate this skill' }).waitFor();
    await visitor.page.getByRole('button', { name: 'Send feedback' }).click();
    await visitor.page.getByText('Choose a rating or write a comment (or both).').waitFor();
    await visitor.page.getByRole('radio', { name: '4 stars, Very good' }).check({ force: true });
    await visitor.page.getByLabel('Comment').fill('Clean slides from a rough outline. Speaker notes could be longer.');
    await visitor.page.getByLabel('About version').selectOption('1.0.0');
    await visitor.page.getByRole('button', { name: 'Send feedback' }).click();
    await visitor.page.getByText('Thank you — your feedback was sent.').waitFor();
    await finish(visitor, 'feedback-sent');

    const ownerSession = await openSession(browser, registry, { cookie: owner.cookie });
    const { page } = ownerSession;
    await page.goto('/me/skills/slide-deck-builder?tab=feedback');
    const item = page.locator('.feedback-item').first();
    await item.getByText('Speaker notes could be longer.').waitFor();
    assert.match(await item.innerText(), /Anonymous visitor[\s\S]*v1\.0\.0/);
    assert.equal(await item.getByRole('img', { name: '4 out of 5' }).count(), 1);
    assert.match(await page.locator('.rating-summary').innerText(), /4\.0[\s\S]*1 response/);
    await finish(ownerSession, 'feedback-received');
  });

  test('the admin publishes a draft from the review queue, and it appears in public search', async () => {
    const api = registry.api;
    const maya = await api.user('maya');
    await api.skill(maya.cookie, {
      name: 'Meeting Notes',
      slug: 'meeting-notes',
      description: 'Summarise meeting transcripts into decisions and action items.',
      tags: ['meetings', 'summary'],
    });
    await api.upload(
      maya.cookie,
      'meeting-notes',
      '0.9.0',
      (await pdfToolsPackage({ name: 'meeting-notes', title: 'Meeting Notes', description: 'Summarise meeting transcripts.' })).archive,
    );

    const visitor = await openSession(browser, registry);
    await visitor.page.goto('/?q=meeting');
    await visitor.page.getByText('No skills match').waitFor();

    const session = await openSession(browser, registry);
    const { page } = session;
    await page.goto('/signin');
    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The problem's detail, as the API words it.
    await page
      .getByRole('alert')
      .filter({ hasText: /password/i })
      .waitFor();
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL('**/admin');
    const entry = page.locator('.queue-item').filter({ hasText: 'Meeting Notes' });
    await entry.waitFor();

    // SKILL.md and files are one click away.
    await entry.getByRole('link', { name: 'Read SKILL.md of v0.9.0' }).click();
    await page.locator('.markdown').getByRole('heading', { name: 'Quick start' }).waitFor();
    await page.goBack();
    await entry.getByRole('link', { name: 'Browse files' }).click();
    await page
      .getByRole('link', { name: /SKILL\.md/ })
      .first()
      .waitFor();
    await page.goBack();

    await entry.getByRole('button', { name: /Publish/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish “Meeting Notes”?' });
    await dialog.getByLabel('Reason').fill('Reviewed: instructions are clear.');
    await screenshot(page, 'admin-publish-dialog');
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('“Meeting Notes” is now published.').waitFor();
    await page.getByText('The queue is empty').waitFor();
    const audit = await registry.app.runtime.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('action', '=', 'skill.status')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    assert.equal(audit?.reason, 'Reviewed: instructions are clear.');

    await visitor.page.reload();
    await visitor.page.getByRole('heading', { name: '1 skill for “meeting”' }).waitFor();
    await visitor.page.getByRole('link', { name: 'Meeting Notes' }).waitFor();

    // Feature, deprecate with a reason, republish: all from the list of every skill.
    await page.getByRole('link', { name: 'All skills' }).click();
    // The unfiltered list shows the row too: act only once the filtered answer is in, or its arrival would
    // replace the rows (and drop the skill once it is deprecated) in the middle of the steps below.
    const filtered = page.waitForResponse((response) => new URL(response.url()).searchParams.get('q') === 'meeting');
    await page.getByRole('searchbox', { name: 'Search skills' }).fill('meeting');
    await filtered;
    const row = page.getByRole('row', { name: /Meeting Notes/ });
    await row.waitFor();
    await row.getByRole('button', { name: /Feature/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Feature' }).click();
    await row.getByText('Featured').waitFor();
    await row.getByRole('button', { name: /Deprecate/ }).click();
    await page.getByRole('dialog').getByLabel('Reason').fill('Superseded by a newer skill.');
    await page.getByRole('dialog').getByRole('button', { name: 'Deprecate' }).click();
    await row.getByText('Deprecated').waitFor();
    await visitor.page.reload();
    await visitor.page.getByText('No skills match').waitFor();
    await row.getByRole('button', { name: /Republish/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Republish' }).click();
    await row.getByText('Published').waitFor();
    await finish(visitor, 'admin-visitor-view');
    await finish(session, 'admin-moderation');
  });

  test('the admin finds users, disables and re-enables one, and changes a role', async () => {
    const api = registry.api;
    const nico = await api.user('nico');
    const session = await openSession(browser, registry, { cookie: adminCookie });
    const { page } = session;
    await page.goto('/admin/users');
    await page.getByRole('row', { name: /admin@example\.com/ }).waitFor();
    // An administrator cannot lock themselves out from here.
    assert.equal(
      await page
        .getByRole('row', { name: /admin@example\.com/ })
        .getByRole('button', { name: /Disable/ })
        .isDisabled(),
      true,
    );

    await page.getByRole('searchbox', { name: 'Search users' }).fill('nico');
    await page.waitForURL(/q=nico/);
    await page.getByRole('heading', { name: '1 user' }).waitFor();
    const row = page.getByRole('row', { name: /nico@example\.com/ });
    await row.getByRole('button', { name: /Disable/ }).click();
    await page.getByRole('dialog', { name: 'Disable nico?' }).getByRole('button', { name: 'Disable' }).click();
    await row.getByText('disabled', { exact: true }).waitFor();
    await eventually(
      async () => (await api.call('GET', '/v1/me', { cookie: nico.cookie })).status === 401,
      "the disabled user's session stops working",
    );

    await row.getByRole('button', { name: /Enable/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Enable' }).click();
    await row.getByText('active', { exact: true }).waitFor();
    await row.getByRole('button', { name: /Make admin/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Make admin' }).click();
    await row.locator('.badge-admin').waitFor();

    await page.getByRole('searchbox', { name: 'Search users' }).fill('');
    await page.getByLabel('Role').selectOption('admin');
    await page.getByRole('heading', { name: '2 users' }).waitFor();
    await finish(session, 'admin-users');
  });

  test('the console works at phone width', async () => {
    const session = await openSession(browser, registry, { viewport: { width: 390, height: 844 } });
    const { page } = session;
    const noHorizontalScroll = () => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

    await page.goto('/');
    await page.locator('.skill-card').first().waitFor();
    const menu = page.getByRole('button', { name: 'Menu' });
    assert.equal(await menu.isVisible(), true);
    assert.equal(await page.getByRole('link', { name: 'Sign in' }).isVisible(), false);
    await menu.click();
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    assert.equal(await noHorizontalScroll(), true, 'the browse page fits the phone');
    await menu.click();
    await screenshot(page, 'phone-browse');

    await page.goto('/skills/pdf-tools');
    await page.locator('.markdown').waitFor();
    assert.equal(await noHorizontalScroll(), true, 'the skill page fits the phone');
    // The facts and the download button come before the long SKILL.md on a narrow screen.
    const asideTop = await page
      .locator('.skill-aside')
      .evaluate((el: { getBoundingClientRect(): { top: number } }) => el.getBoundingClientRect().top);
    const mainTop = await page
      .locator('.skill-main')
      .evaluate((el: { getBoundingClientRect(): { top: number } }) => el.getBoundingClientRect().top);
    assert.ok(asideTop < mainTop);
    await screenshot(page, 'phone-skill');

    await page.goto('/skills/pdf-tools?tab=versions');
    await page.locator('.version-item').waitFor();
    assert.equal(await noHorizontalScroll(), true, 'the version list fits the phone');
    await finish(session, 'phone-versions');
  });
});
