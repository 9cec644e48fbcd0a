/**
 * The web console in a real browser, for organisations: one is created, a second person is invited and accepts,
 * a private skill is published in the organisation's scope and stays out of an outsider's sight, and a skill moves
 * to the organisation by an offer one account makes and another accepts. The organisation's page at desktop width
 * and on a 390 px phone.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { pdfToolsPackage } from './fixtures.js';
import { closeLeftovers, finish, launchBrowser, openSession, screenshot, startRegistry, type Registry, type SeedUser } from './harness.js';
import { ifSet } from '../helpers/hooks.js';

const PHONE = { width: 390, height: 844 };

async function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');
}

describe('web console: organisations', () => {
  let registry: Registry;
  let browser: Browser;
  let adminCookie: string;
  let ana: SeedUser;
  let ben: SeedUser;
  let cara: SeedUser;

  before(async () => {
    registry = await startRegistry();
    browser = await launchBrowser();
    adminCookie = await registry.api.admin();
    ana = await registry.api.user('ana');
    ben = await registry.api.user('ben');
    cara = await registry.api.user('cara');
  });

  afterEach(async (t) => closeLeftovers(t.name));

  after(async () => {
    await ifSet(browser)?.close();
    await ifSet(registry)?.close();
  });

  test('an organisation is created, a member invited who accepts, and a private skill published that outsiders cannot see', async () => {
    // Ana creates the organisation from "My organisations".
    const owner = await openSession(browser, registry, { cookie: ana.cookie });
    await owner.page.goto('/me/skills');
    await owner.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organisations' }).click();
    await owner.page.waitForURL('**/me/orgs');
    await owner.page.getByText('You belong to no organisation').waitFor();
    await owner.page.getByLabel('Handle').fill('Not a handle!');
    await owner.page.getByText('2 to 39 of a-z, 0-9, "_" and "-", starting with a letter or digit.').waitFor();
    await owner.page.getByLabel('Handle').fill('acme');
    await owner.page.getByLabel('Display name').fill('Acme Corporation');
    await owner.page.getByRole('button', { name: 'Create organisation' }).click();
    await owner.page.waitForURL('**/orgs/acme');
    await owner.page.getByRole('heading', { name: 'Acme Corporation', level: 1 }).waitFor();
    assert.match(await owner.page.locator('.page-header').innerText(), /@acme[\s\S]*Your role:\s*Owner/);
    await owner.page.getByRole('row', { name: /ana/ }).waitFor();
    await owner.page.getByText(/Create a skill in the scope @acme/).waitFor();
    await screenshot(owner.page, 'console-orgs-created');

    // She invites Ben as a publisher; an unknown username is refused in the registry's words.
    const invitations = owner.page.getByRole('region', { name: 'Invitations' });
    await invitations.getByLabel('Username').fill('nobody-here');
    await invitations.getByRole('button', { name: 'Invite' }).click();
    await invitations.getByRole('alert').waitFor();
    await invitations.getByLabel('Username').fill('ben');
    await invitations.getByLabel('Role').selectOption('publisher');
    await invitations.getByRole('button', { name: 'Invite' }).click();
    const openInvitations = invitations.getByRole('list', { name: 'Open invitations' });
    await openInvitations.getByText('ben', { exact: true }).waitFor();
    assert.match(await openInvitations.innerText(), /ben as\s*Publisher/);
    await screenshot(owner.page, 'console-orgs-invited');

    // Ben sees the invitation among his organisations and accepts it.
    const member = await openSession(browser, registry, { cookie: ben.cookie });
    await member.page.goto('/me/orgs');
    const invitation = member.page.getByRole('listitem', { name: 'Invitation to @acme' });
    await invitation.waitFor();
    assert.match(await invitation.innerText(), /@acme invites you as\s*Publisher\s*\(from ana\)/);
    await screenshot(member.page, 'console-orgs-invitation');
    await invitation.getByRole('button', { name: 'Accept invitation to @acme' }).click();
    await invitation.waitFor({ state: 'detached' });
    await member.page.getByRole('link', { name: 'Acme Corporation' }).waitFor();
    await screenshot(member.page, 'console-orgs-joined');

    // The owner sees the new member, and the history says what happened.
    await owner.page.reload();
    const benRow = owner.page.getByRole('row', { name: /ben/ });
    await benRow.waitFor();
    assert.equal(await benRow.getByRole('combobox', { name: 'Role of ben' }).inputValue(), 'publisher');
    assert.equal(await owner.page.getByRole('list', { name: 'Open invitations' }).count(), 0);
    const history = owner.page.getByRole('region', { name: 'History' });
    await history.getByText(/ben accepted the invitation/).waitFor();
    assert.match(await history.innerText(), /ana invited ben as publisher/);
    assert.match(await history.innerText(), /ana created the organisation/);

    // Ben creates a private skill in the organisation's scope and uploads its package.
    await member.page.goto('/me/skills/new');
    await member.page.getByRole('radio', { name: /@acme/ }).check();
    await member.page.getByRole('checkbox', { name: /Private/ }).check();
    await member.page.getByLabel('Name', { exact: true }).fill('PDF Tools');
    await member.page.getByText(/the skill is named @acme\/pdf-tools/).waitFor();
    await member.page.getByLabel('Description').fill('Extract text and tables from PDF files.');
    await screenshot(member.page, 'console-orgs-new-scoped-skill');
    await member.page.getByRole('button', { name: 'Create draft' }).click();
    await member.page.waitForURL('**/me/skills/@acme/pdf-tools?tab=upload');
    await member.page.getByRole('heading', { name: 'PDF Tools', level: 1 }).waitFor();
    assert.match(await member.page.locator('.page-header .badges').innerText(), /Draft[\s\S]*Private/);
    assert.match(await member.page.locator('.page-header').innerText(), /@acme\/pdf-tools\s*by\s*organisation @acme/);
    const pkg = await pdfToolsPackage({ hostile: false });
    await member.page
      .locator('input[type=file]')
      .setInputFiles({ name: 'pdf-tools.zip', mimeType: 'application/zip', buffer: pkg.archive });
    await member.page.getByLabel('Version', { exact: true }).fill('1.0.0');
    await member.page.getByRole('button', { name: 'Upload version' }).click();
    await member.page.getByText('Version 1.0.0 uploaded', { exact: true }).waitFor({ timeout: 30_000 });
    await screenshot(member.page, 'console-orgs-private-skill-uploaded');
    await member.page.getByRole('link', { name: 'See its SKILL.md' }).click();
    await member.page.waitForURL('**/skills/@acme/pdf-tools?version=1.0.0');
    await member.page.getByRole('heading', { name: 'PDF Tools', level: 1 }).waitFor();
    await member.page.locator('.markdown').getByRole('heading', { name: 'Quick start' }).waitFor();
    await finish(member, 'console-orgs-member');

    // An administrator publishes it; members see it with its scoped name, owner and the Private badge.
    await registry.api.setStatus(adminCookie, encodeURIComponent('@acme/pdf-tools'), 'published');
    await owner.page.goto('/skills/@acme/pdf-tools');
    await owner.page.getByRole('heading', { name: 'PDF Tools', level: 1 }).waitFor();
    const header = owner.page.locator('.page-header');
    assert.match(await header.locator('.badges').innerText(), /Private/);
    assert.match(await header.innerText(), /@acme\/pdf-tools\s*by\s*organisation @acme/);
    assert.equal(await header.getByRole('link', { name: '@acme' }).getAttribute('href'), '/orgs/acme');
    await owner.page.getByRole('link', { name: 'Manage' }).waitFor();
    // A private skill's plain download line carries an API key: without one the registry answers 404.
    const curlLine = await owner.page.locator('.install-command code', { hasText: 'curl' }).innerText();
    assert.match(curlLine, /-H "Authorization: Bearer \$SKILL_REGISTRY_API_KEY"/);
    await screenshot(owner.page, 'console-orgs-private-skill-page');
    await owner.page.goto('/orgs/acme');
    const card = owner.page.locator('.skill-card', { hasText: 'PDF Tools' });
    await card.waitFor();
    assert.match(await card.innerText(), /Published[\s\S]*Private[\s\S]*@acme\/pdf-tools/);
    await finish(owner, 'console-orgs-owner');

    // Cara, outside the organisation, sees neither the skill nor its members.
    const outsider = await openSession(browser, registry, { cookie: cara.cookie });
    await outsider.page.goto('/skills/@acme/pdf-tools');
    await outsider.page.getByRole('heading', { name: 'Skill not found', level: 1 }).waitFor();
    await outsider.page.goto('/orgs/acme');
    await outsider.page.getByRole('heading', { name: 'Acme Corporation', level: 1 }).waitFor();
    await outsider.page.getByText('Nothing is published here yet.').waitFor();
    assert.equal(await outsider.page.getByRole('region', { name: 'Members' }).count(), 0);
    assert.equal(await outsider.page.getByText('PDF Tools').count(), 0);
    await outsider.page.goto('/?q=pdf');
    await outsider.page.getByRole('heading', { level: 1 }).first().waitFor();
    await outsider.page.locator('.results-count, .empty').first().waitFor();
    assert.equal(await outsider.page.locator('.skill-card', { hasText: '@acme/pdf-tools' }).count(), 0);
    await registry.api.expect(404, 'GET', `/v1/skills/${encodeURIComponent('@acme/pdf-tools')}`, { cookie: cara.cookie });
    await finish(outsider, 'console-orgs-outsider');

    // The organisation's page for a member, at desktop width and on a phone.
    for (const [viewport, name] of [
      [undefined, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const session = await openSession(browser, registry, { cookie: ana.cookie, ...(viewport ? { viewport } : {}) });
      await session.page.goto('/orgs/acme');
      await session.page.getByRole('row', { name: /ben/ }).waitFor();
      await session.page.locator('.skill-card', { hasText: 'PDF Tools' }).waitFor();
      await session.page
        .getByRole('region', { name: 'History' })
        .getByText(/accepted the invitation/)
        .waitFor();
      assert.equal(await overflowsSideways(session.page), false, `the organisation page fits at ${name} width`);
      await finish(session, `console-orgs-page-${name}`);
    }
  });

  test('owners and admins change roles and members leave', async () => {
    const org = 'tools-guild';
    await registry.api.expect(201, 'POST', '/v1/orgs', { cookie: ana.cookie, json: { handle: org } });
    const invited = await registry.api.expect<{ id: string }>(201, 'POST', `/v1/orgs/${org}/invitations`, {
      cookie: ana.cookie,
      json: { username: 'cara', role: 'publisher' },
    });
    await registry.api.expect(200, 'POST', `/v1/me/invitations/${invited.id}/accept`, { cookie: cara.cookie });

    const owner = await openSession(browser, registry, { cookie: ana.cookie });
    await owner.page.goto(`/orgs/${org}`);
    const caraRow = owner.page.getByRole('row', { name: /cara/ });
    await caraRow.getByRole('combobox', { name: 'Role of cara' }).selectOption('admin');
    await owner.page.getByText('cara is now admin.').waitFor();
    await owner.page.getByRole('region', { name: 'History' }).getByText('ana changed the role of cara from publisher to admin').waitFor();
    const members = await registry.api.expect<{ items: { username: string; role: string }[] }>(200, 'GET', `/v1/orgs/${org}/members`, {
      cookie: ana.cookie,
    });
    assert.equal(members.items.find((m) => m.username === 'cara')?.role, 'admin');
    await finish(owner, 'console-orgs-role-changed');

    // Cara, now an admin, leaves on her own.
    const leaver = await openSession(browser, registry, { cookie: cara.cookie });
    await leaver.page.goto(`/orgs/${org}`);
    await leaver.page.getByRole('row', { name: /cara/ }).getByRole('button', { name: 'Leave' }).click();
    const dialog = leaver.page.getByRole('dialog', { name: `Leave @${org}?` });
    await dialog.getByRole('button', { name: 'Leave organisation' }).click();
    await leaver.page.waitForURL('**/me/orgs');
    await leaver.page.getByText('You belong to no organisation').waitFor();
    await finish(leaver, 'console-orgs-left');
  });

  test('a skill is offered to the organisation, withdrawn, offered again and accepted; its old name leads to the new one', async () => {
    await registry.api.skill(ben.cookie, { name: 'CSV Kit', slug: 'csv-kit', scope: 'ben', description: 'Reads and writes CSV files.' });

    // Ben offers his skill to Cara, thinks better of it, and offers it to the organisation instead.
    const giver = await openSession(browser, registry, { cookie: ben.cookie });
    await giver.page.goto('/me/skills');
    await giver.page.getByRole('link', { name: 'CSV Kit' }).click();
    await giver.page.waitForURL('**/me/skills/@ben/csv-kit');
    await giver.page.getByRole('link', { name: 'Name and owner' }).click();
    await giver.page.getByLabel('Offer to').fill('cara');
    await giver.page.getByRole('button', { name: 'Offer skill' }).click();
    const offer = giver.page.getByRole('region', { name: 'Open offer' });
    await offer.getByText(/Offered to cara as\s*@cara\/csv-kit/).waitFor();
    await offer.getByRole('button', { name: 'Withdraw offer' }).click();
    await offer.waitFor({ state: 'detached' });
    await giver.page.getByLabel('Offer to').fill('@acme');
    await giver.page.getByRole('button', { name: 'Offer skill' }).click();
    await offer.getByText(/Offered to acme as\s*@acme\/csv-kit/).waitFor();
    await screenshot(giver.page, 'console-orgs-transfer-offered');
    const pending = await registry.api.expect<{ items: { to: string }[] }>(200, 'GET', '/v1/skills/%40ben%2Fcsv-kit/transfer', {
      cookie: ben.cookie,
    });
    assert.deepEqual(
      pending.items.map((t) => t.to),
      ['acme'],
    );
    await finish(giver, 'console-orgs-transfer-giver');

    // Ana, the organisation's owner, accepts it among her skills.
    const receiver = await openSession(browser, registry, { cookie: ana.cookie });
    await receiver.page.goto('/me/skills');
    const incoming = receiver.page.getByRole('listitem', { name: 'Offer of @ben/csv-kit' });
    await incoming.waitFor();
    assert.match(await incoming.innerText(), /offered to acme by ben\. It arrives as @acme\/csv-kit/);
    await screenshot(receiver.page, 'console-orgs-transfer-incoming');
    await incoming.getByRole('button', { name: 'Accept @ben/csv-kit' }).click();
    await receiver.page.getByText('@acme/csv-kit is now yours.').waitFor();
    await incoming.waitFor({ state: 'detached' });

    // The old name answers with the new: the browser lands on the skill's name now.
    await receiver.page.goto('/skills/@ben/csv-kit');
    await receiver.page.waitForURL('**/skills/@acme/csv-kit');
    await receiver.page.getByRole('heading', { name: 'CSV Kit', level: 1 }).waitFor();
    assert.match(await receiver.page.locator('.page-header').innerText(), /@acme\/csv-kit\s*by\s*organisation @acme/);
    await screenshot(receiver.page, 'console-orgs-transfer-redirected');

    // Renamed within the scope; both earlier names still lead to it.
    await receiver.page.getByRole('link', { name: 'Manage' }).click();
    await receiver.page.waitForURL('**/me/skills/@acme/csv-kit');
    await receiver.page.getByRole('link', { name: 'Name and owner' }).click();
    await receiver.page.getByLabel('New slug').fill('csv-tools');
    await receiver.page.getByRole('button', { name: 'Rename skill' }).click();
    await receiver.page.waitForURL('**/me/skills/@acme/csv-tools?tab=settings');
    const earlier = receiver.page.getByRole('region', { name: 'Earlier names' });
    await earlier.getByText('@acme/csv-kit').waitFor();
    await earlier.getByText('@ben/csv-kit').waitFor();
    await receiver.page.goto('/me/skills/@ben/csv-kit?tab=settings');
    await receiver.page.waitForURL('**/me/skills/@acme/csv-tools?tab=settings');
    await finish(receiver, 'console-orgs-transfer-renamed');
  });
});
