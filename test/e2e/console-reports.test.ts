/**
 * The web console in a real browser, on reports: a signed-in user reports a skill and is refused a second
 * report while the first is open; enough reports hide the skill, which its owner and administrators see marked;
 * an administrator reads the reports queue and dismisses the reports.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { pdfToolsPackage } from './fixtures.js';
import { closeLeftovers, eventually, finish, launchBrowser, openSession, startRegistry, type Registry, type SeedUser } from './harness.js';
import { ifSet } from '../helpers/hooks.js';

describe('web console: reports', () => {
  let registry: Registry;
  let browser: Browser;
  let owner: SeedUser;
  let adminCookie: string;

  before(async () => {
    // Two reporters hide a skill pending review.
    registry = await startRegistry({ REPORTS_HIDE_THRESHOLD: '2' });
    browser = await launchBrowser();
    adminCookie = await registry.api.admin();
    owner = await registry.api.user('quill');
    await registry.api.skill(owner.cookie, {
      slug: 'commit-poet',
      name: 'Commit Poet',
      description: 'Writes commit messages as haiku.',
    });
    const pkg = await pdfToolsPackage({
      name: 'commit-poet',
      title: 'Commit Poet',
      description: 'Writes commit messages as haiku.',
      hostile: false,
    });
    await registry.api.upload(owner.cookie, 'commit-poet', '1.0.0', pkg.archive);
    await registry.api.setStatus(adminCookie, 'commit-poet', 'published');
  });

  afterEach(async (t) => closeLeftovers(t.name));

  after(async () => {
    await ifSet(browser)?.close();
    await ifSet(registry)?.close();
  });

  test('a user reports a skill, and a second report is refused while the first is open', async () => {
    const reporter = await registry.api.user('rhea');
    const session = await openSession(browser, registry, { cookie: reporter.cookie });
    const { page } = session;
    await page.goto('/skills/commit-poet');
    await page.getByRole('heading', { name: 'Commit Poet', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Report Commit Poet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report “Commit Poet”' });
    await dialog.waitFor();
    // The open dialog is in the URL: it survives a reload, and Back closes it.
    await page.waitForURL(/[?&]report=1/);
    await page.reload();
    await dialog.waitFor();
    await page.goBack();
    await dialog.waitFor({ state: 'hidden' });
    await page.goForward();
    await dialog.waitFor();
    // The close event of a dialog is queued; when Back and Forward come quickly, the first closing's event arrives
    // after the dialog has opened again. Closing and reopening it in one task delivers exactly that late event: the
    // dialog stays open, and the URL still says so.
    await page.evaluate('(() => { const d = document.querySelector("dialog[open]"); d.close(); d.showModal(); })()');
    await page.evaluate('new Promise((resolve) => setTimeout(resolve, 0))');
    await dialog.waitFor();
    assert.match(page.url(), /[?&]report=1/);
    // The reason is the dialog's first field, and it has the focus. The dialog moves the focus once it has rendered:
    // waited for (failing after ten seconds), not read at the instant the dialog shows.
    await eventually(
      async () => (await page.evaluate<string | undefined>('document.activeElement?.tagName')) === 'SELECT',
      'the reason has the focus',
    );
    assert.equal(await page.evaluate<string | undefined>('document.activeElement?.tagName'), 'SELECT');
    // "Something else" needs details, said before the registry is asked.
    await dialog.getByLabel('Reason').selectOption('other');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByText('details are required').waitFor();
    await dialog.getByLabel('Reason').selectOption('spam');
    await dialog.getByLabel('Details').fill('Links to a paid service in every message it writes.');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Report sent' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.doesNotMatch(page.url(), /report=/);

    await page.getByRole('button', { name: 'Report Commit Poet' }).click();
    await dialog.getByLabel('Reason').selectOption('malware');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByRole('status').filter({ hasText: 'You have already reported this skill' }).waitFor();
    await finish(session, 'console-report-refused-twice');

    // The owner is not offered a report of their own skill.
    const ownerSession = await openSession(browser, registry, { cookie: owner.cookie });
    await ownerSession.page.goto('/skills/commit-poet');
    await ownerSession.page.getByRole('link', { name: 'Manage' }).waitFor();
    assert.equal(await ownerSession.page.getByRole('button', { name: /^Report/ }).count(), 0);
    await finish(ownerSession, 'console-report-owner');
  });

  test('a hidden skill is marked for its owner, and the admin reads the reports and dismisses them', async () => {
    // A second reporter reaches the threshold: the skill is hidden pending review.
    const second = await registry.api.user('silas');
    await registry.api.expect(201, 'POST', '/v1/skills/commit-poet/reports', {
      cookie: second.cookie,
      json: { reason: 'malware', details: 'scripts/extract.py reads files it has no need for.' },
    });
    await registry.api.expect(404, 'GET', '/v1/skills/commit-poet');

    const ownerSession = await openSession(browser, registry, { cookie: owner.cookie });
    await ownerSession.page.goto('/me/skills/commit-poet');
    await ownerSession.page.getByText('Hidden pending review', { exact: true }).waitFor();
    await finish(ownerSession, 'console-report-hidden-owner');

    const session = await openSession(browser, registry, { cookie: adminCookie });
    const { page } = session;
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Reports' }).click();
    await page.waitForURL('**/admin/reports');
    await page.getByRole('heading', { name: '1 skill with open reports' }).waitFor();
    const item = page.locator('.queue-item').filter({ hasText: 'Commit Poet' });
    assert.match(await item.innerText(), /Hidden pending review[\s\S]*2 reporters, 2 reports/);
    const reasons = await item.getByRole('list', { name: 'Reasons' }).innerText();
    assert.match(reasons, /Spam × 1/);
    assert.match(reasons, /Malware × 1/);

    await item.getByRole('button', { name: 'Read reports of Commit Poet' }).click();
    await page.waitForURL(/skill=commit-poet/);
    const detail = page.getByRole('region', { name: 'Open reports of “Commit Poet”' });
    await detail.getByText('scripts/extract.py reads files it has no need for.').waitFor();
    assert.match(await detail.innerText(), /Spam · by rhea[\s\S]*Links to a paid service/);
    // The detail's heading has the focus, so a keyboard user lands on what opened.
    await eventually(
      async () => (await page.evaluate<string | undefined>('document.activeElement?.id')) === 'report-detail-title',
      'the detail heading has the focus',
    );
    assert.equal(await page.evaluate<string | undefined>('document.activeElement?.id'), 'report-detail-title');
    // The state of the view is in the URL: a reload shows the same reports.
    await page.reload();
    await detail.getByText('Links to a paid service in every message it writes.').waitFor();

    await detail.getByRole('button', { name: 'Resolve…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Resolve the reports of “Commit Poet”' });
    await dialog.getByLabel('Dismiss: nothing wrong, the skill is shown as before').check();
    await dialog.getByLabel('Note').fill('Links are the documentation; nothing is read that should not be.');
    await dialog.getByRole('button', { name: 'Dismiss reports' }).click();
    await page.getByText('2 reports dismissed; the skill is published.').waitFor();
    await page.getByRole('heading', { name: '0 skills with open reports' }).waitFor();
    await page.getByText('No open reports').waitFor();
    assert.doesNotMatch(page.url(), /skill=/);

    // The resolved reports keep the decision, under "Resolved".
    await page.getByRole('button', { name: 'Resolved' }).click();
    await page.waitForURL(/state=resolved/);
    await page.getByRole('button', { name: 'Read reports of Commit Poet' }).click();
    const resolved = page.getByRole('region', { name: 'Resolved reports of “Commit Poet”' });
    await resolved
      .getByText(/Dismissed by admin .*: Links are the documentation/)
      .first()
      .waitFor();
    await finish(session, 'console-reports-queue');

    // Dismissed: the skill is public again.
    await registry.api.expect(200, 'GET', '/v1/skills/commit-poet');
  });

  test('the admin acts on a report and deprecates the skill in the same step, from a shared link', async () => {
    await registry.api.skill(owner.cookie, { slug: 'free-credits', name: 'Free Credits', description: 'Claims free API credits.' });
    const pkg = await pdfToolsPackage({
      name: 'free-credits',
      title: 'Free Credits',
      description: 'Claims free API credits.',
      hostile: false,
    });
    await registry.api.upload(owner.cookie, 'free-credits', '1.0.0', pkg.archive);
    await registry.api.setStatus(adminCookie, 'free-credits', 'published');
    const reporter = await registry.api.user('tomas');
    await registry.api.expect(201, 'POST', '/v1/skills/free-credits/reports', {
      cookie: reporter.cookie,
      json: { reason: 'impersonation', details: 'Poses as the vendor’s official tool.' },
    });

    const session = await openSession(browser, registry, { cookie: adminCookie });
    const { page } = session;
    await page.goto('/admin/reports?skill=free-credits');
    const detail = page.getByRole('region', { name: 'Open reports of “Free Credits”' });
    await detail.getByText('Poses as the vendor’s official tool.').waitFor();
    await detail.getByRole('button', { name: 'Resolve…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Resolve the reports of “Free Credits”' });
    await dialog.getByLabel('Act on them').check();
    await dialog.getByLabel('Status change').selectOption('deprecated');
    await dialog.getByLabel('Note').fill('Not the vendor’s; deprecated.');
    await dialog.getByRole('button', { name: 'Resolve as actioned' }).click();
    await page.getByText('1 report actioned; the skill is deprecated.').waitFor();
    await finish(session, 'console-reports-actioned');

    const skill = await registry.api.expect<{ status: string }>(200, 'GET', '/v1/skills/free-credits', { cookie: adminCookie });
    assert.equal(skill.status, 'deprecated');
  });
});
