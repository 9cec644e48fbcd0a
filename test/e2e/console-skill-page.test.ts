/**
 * The skill page and the call log as a newcomer meets them, at desktop and phone widths: an anonymous visit makes
 * no failed request, the install commands can be copied, the file browser shows the whole tree with names broken
 * only between words and numbered lines, nothing is cut off at 390 px, the download stays near the top under a long
 * description, the Security tab says which links it leaves out, front-matter metadata reads as a list, and a
 * visitor learns that signing in lets them report a skill.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { zip, type ArchiveFile } from '../helpers/archives.js';
import { ifSet } from '../helpers/hooks.js';
import { closeLeftovers, finish, launchBrowser, openSession, type Registry, type SeedUser, startRegistry } from './harness.js';

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

const LONG_DESCRIPTION =
  'Create, edit and review Word documents (.docx) the way a careful editor would: tracked changes and comments are kept, ' +
  'styles and numbering survive every edit, tables and images stay where they were, and headers, footers and sections ' +
  'are left alone unless asked. Reads documents into Markdown for analysis, writes new ones from a template with the ' +
  "house style, redlines a contract against the other side's version, accepts or rejects revisions one by one, and " +
  'checks the result against the OOXML schemas before handing it back, so Word opens it without repairs. Works with ' +
  'documents produced by Word, LibreOffice and Google Docs, and says plainly when a file uses a feature it cannot keep.';

const SCRIPT_LINES = Array.from({ length: 40 }, (_, i) => (i === 0 ? 'import os' : `print("step ${i + 1}")`));

/** Schema files as real document skills ship them: deep folders, long hyphenated names. */
const SCHEMA_NAMES = [
  'dml-chart.xsd',
  'dml-chartDrawing.xsd',
  'dml-diagram.xsd',
  'dml-lockedCanvas.xsd',
  'dml-main.xsd',
  'dml-picture.xsd',
  'dml-spreadsheetDrawing.xsd',
  'dml-wordprocessingDrawing.xsd',
  'pml.xsd',
  'shared-additionalCharacteristics.xsd',
  'shared-bibliography.xsd',
  'shared-commonSimpleTypes.xsd',
  'shared-customXmlDataProperties.xsd',
  'shared-customXmlSchemaProperties.xsd',
  'shared-documentPropertiesCustom.xsd',
  'shared-documentPropertiesExtended.xsd',
  'shared-documentPropertiesVariantTypes.xsd',
  'shared-relationshipReference.xsd',
  'sml.xsd',
  'vml-presentationDrawing.xsd',
  'vml-spreadsheetDrawing.xsd',
  'vml-wordprocessingDrawing.xsd',
  'wml.xsd',
];

function officeSkillMd(): string {
  return `---
name: office-docs
description: Create, edit and review Word documents with tracked changes.
license: Proprietary
metadata:
  author: acme
  version: "2.1"
  formats:
    - docx
    - dotx
  support:
    email: help@example.com
    hours: weekdays
---

# Office Documents

Read the [format guide](https://docs.example.com/ooxml/guide) first. Preview a document with
\`./scripts/with_server.py\`, which serves it at http://localhost:8080/preview.
`;
}

function officeFiles(): ArchiveFile[] {
  return [
    { path: 'SKILL.md', content: officeSkillMd() },
    { path: 'scripts/with_server.py', content: `${SCRIPT_LINES.join('\n')}\n`, mode: 0o755 },
    { path: 'ooxml/scripts/validation/redlining_validator.py', content: 'def validate(path):\n    return True\n' },
    ...SCHEMA_NAMES.map((name) => ({
      path: `ooxml/schemas/ISO-IEC29500-4_2016/${name}`,
      content: `<?xml version="1.0"?>\n<xsd:schema id="${name}"/>\n`,
    })),
  ];
}

/** Every problem the browser reports while a page loads: console errors (a failed request is one) and 4xx/5xx answers. */
function watchFailures(page: Page): string[] {
  const failures: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(`console: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    // A call the page cancelled itself (its view changed first) is not a failure, and the browser logs nothing for it.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') failures.push(`request failed: ${request.method()} ${request.url()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return failures;
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

async function boxes(page: Page, selector: string): Promise<Box[]> {
  return page.evaluate<Box[]>(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; })`,
  );
}

/** Elements matching `selector` that overflow their own box sideways or downwards (content reachable only by scrolling inside them). */
async function overflowing(page: Page, selector: string): Promise<string[]> {
  return page.evaluate<string[]>(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1).map((el) => el.className + ' ' + el.scrollWidth + 'x' + el.scrollHeight + ' in ' + el.clientWidth + 'x' + el.clientHeight)`,
  );
}

/** Words (runs of letters and digits) of the elements matching `selector` that are split across two lines. */
async function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const broken = [];
    for (const el of document.querySelectorAll(${JSON.stringify(selector)})) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of node.data.matchAll(/[A-Za-z0-9]+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(m[0]);
        }
      }
    }
    return broken;
  })()`);
}

describe('web console: the skill page and the call log, desktop and phone', () => {
  let registry: Registry;
  let browser: Browser;
  let owner: SeedUser;
  let visitor: SeedUser;

  before(async () => {
    registry = await startRegistry();
    browser = await launchBrowser();
    const api = registry.api;
    const adminCookie = await api.admin();
    owner = await api.user('dana');
    visitor = await api.user('vic');
    await api.skill(owner.cookie, {
      name: 'Office Docs',
      slug: 'office-docs',
      description: LONG_DESCRIPTION,
      tags: ['docx', 'office'],
      source_type: 'github',
      source_url: 'https://github.com/acme/office-docs',
    });
    const archive = await zip(officeFiles());
    await api.upload(owner.cookie, 'office-docs', '1.0.0', archive);
    await api.upload(owner.cookie, 'office-docs', '1.1.0', archive, { changelog: 'Redlining keeps comments.' });
    await api.setStatus(adminCookie, 'office-docs', 'published');
    // Renamed once published: the page says what it was called.
    await api.expect(200, 'PATCH', '/v1/skills/office-docs', { cookie: owner.cookie, json: { name: 'Office Documents' } });
    await api.expect(201, 'POST', '/v1/me/api-keys', {
      cookie: owner.cookie,
      json: { name: 'release-pipeline-key', scopes: ['skill:upload'] },
    });
    // Calls with long paths, as a real log has them.
    await api.call('GET', '/v1/skills?q=word%20documents%20tracked%20changes&sort=relevance&page_size=50', { cookie: owner.cookie });
    await api.call('GET', '/v1/skills/office-docs/versions/1.1.0/files/ooxml/schemas/ISO-IEC29500-4_2016/dml-main.xsd', {
      cookie: owner.cookie,
    });
  });

  afterEach(async (t) => closeLeftovers(t.name));

  after(async () => {
    await ifSet(browser)?.close();
    await ifSet(registry)?.close();
  });

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`an anonymous visit makes no failed request (${label})`, async () => {
      const session = await openSession(browser, registry, { viewport });
      const { page } = session;
      const failures = watchFailures(page);
      await page.goto('/');
      await page.locator('.skill-card').first().waitFor();
      await page.goto('/skills/office-docs');
      await page.locator('.markdown').waitFor();
      await page.goto('/skills/office-docs?tab=files&file=scripts%2Fwith_server.py');
      await page.getByText('print("step 40")').waitFor();
      await page.goto('/signin');
      await page.getByLabel('Username or email').waitFor();
      // Late answers (the session check runs beside the page's own calls) are in before the count.
      await page.waitForLoadState('networkidle');
      assert.deepEqual(failures, []);
      await finish(session, `skill-page-anonymous-${label}`);
    });
  }

  test('a renamed skill says what it was formerly named', async () => {
    const session = await openSession(browser, registry, { viewport: DESKTOP });
    const { page } = session;
    await page.goto('/skills/office-docs');
    const former = page.locator('.former-names');
    await former.waitFor();
    assert.match(await former.innerText(), /^Formerly named “Office Docs” \(until .+\d{4}, renamed by dana\)$/);
    await finish(session, 'skill-page-former-names');
  });

  test("an organisation's skill renamed by a member credits the organisation to a visitor and the member to members", async () => {
    const api = registry.api;
    const adminCookie = await api.admin();
    const member = await api.user('mia');
    await api.expect(201, 'POST', '/v1/orgs', { cookie: owner.cookie, json: { handle: 'docs-guild' } });
    const invitation = await api.expect<{ id: string }>(201, 'POST', '/v1/orgs/docs-guild/invitations', {
      cookie: owner.cookie,
      json: { username: member.username, role: 'publisher' },
    });
    await api.expect(200, 'POST', `/v1/me/invitations/${invitation.id}/accept`, { cookie: member.cookie });
    await api.skill(owner.cookie, { name: 'Guild Sheets', slug: 'guild-sheets', scope: '@docs-guild', description: 'Spreadsheets.' });
    const sheets = await zip([
      { path: 'SKILL.md', content: '---\nname: guild-sheets\ndescription: Reads and writes spreadsheets.\n---\n\n# Guild Sheets\n' },
    ]);
    await api.upload(owner.cookie, encodeURIComponent('@docs-guild/guild-sheets'), '1.0.0', sheets);
    await api.setStatus(adminCookie, encodeURIComponent('@docs-guild/guild-sheets'), 'published');
    await api.expect(200, 'PATCH', `/v1/skills/${encodeURIComponent('@docs-guild/guild-sheets')}`, {
      cookie: member.cookie,
      json: { name: 'Guild Spreadsheets' },
    });
    const session = await openSession(browser, registry, { viewport: DESKTOP });
    const { page } = session;
    await page.goto('/skills/@docs-guild/guild-sheets');
    const former = page.locator('.former-names');
    await former.waitFor();
    assert.match(await former.innerText(), /^Formerly named “Guild Sheets” \(until .+\d{4}, renamed by a member of @docs-guild\)$/);
    await finish(session, 'skill-page-former-names-organisation');
    const inside = await openSession(browser, registry, { viewport: DESKTOP, cookie: member.cookie });
    await inside.page.goto('/skills/@docs-guild/guild-sheets');
    await inside.page.locator('.former-names').waitFor();
    assert.match(await inside.page.locator('.former-names').innerText(), /renamed by mia\)$/);
    await finish(inside, 'skill-page-former-names-member');
  });

  test('the skill page offers the install commands, each with a copy button', async () => {
    const session = await openSession(browser, registry, { viewport: DESKTOP });
    const { page } = session;
    await page.goto('/skills/office-docs');
    const commands = page.locator('.install-command code');
    await commands.first().waitFor();
    const cli = `skill-registry install office-docs --registry ${registry.baseUrl}`;
    const curl = `curl -fOJ ${registry.baseUrl}/v1/skills/office-docs/versions/1.1.0/download`;
    assert.deepEqual(await commands.allInnerTexts(), [cli, curl]);
    await page.getByRole('button', { name: `Copy: ${cli}` }).click();
    await page.locator('.install-command').first().getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), cli);
    await page.getByRole('button', { name: `Copy: ${curl}` }).click();
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), curl);

    // An older version is named in the command.
    await page.getByLabel('Version', { exact: true }).selectOption('1.0.0');
    await page.getByRole('link', { name: /Download v1\.0\.0/ }).waitFor();
    assert.equal(await commands.first().innerText(), `skill-registry install office-docs@1.0.0 --registry ${registry.baseUrl}`);
    await finish(session, 'skill-page-install-commands');
  });

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`the Files tab shows the whole tree, names broken between words, and numbered lines (${label})`, async () => {
      const session = await openSession(browser, registry, { viewport });
      const { page } = session;
      await page.goto('/skills/office-docs?tab=files&file=scripts%2Fwith_server.py');
      await page.getByText('print("step 40")').waitFor();

      // Every file is in the tree, and the tree is not cut off: nothing of it hides behind a scroll of its own.
      assert.equal(await page.locator('.tree-file').count(), officeFiles().length);
      assert.deepEqual(await overflowing(page, '.files-tree'), []);
      const tree = (await boxes(page, '.files-tree'))[0]!;
      for (const link of await boxes(page, '.tree-file a')) {
        assert.ok(
          link.right <= tree.right + 1 && link.right <= viewport.width,
          `a file name sticks out of the tree: ${JSON.stringify(link)}`,
        );
      }
      assert.deepEqual(await brokenWords(page, '.tree-name, .tree-folder-name'), []);
      // The one script the archive marks executable says so, in the tree and above its preview.
      assert.deepEqual(await page.locator('.tree-file:has(.tree-exec) .tree-name').allInnerTexts(), ['with_server.py']);
      assert.match(await page.locator('.preview-bar').innerText(), /executable \(installed with mode 0755\)/);

      // Each line of the file is numbered, from 1; the numbers are not part of the text.
      const lines = page.locator('.files-preview .code-line');
      assert.equal(await lines.count(), SCRIPT_LINES.length);
      assert.equal(await lines.first().getAttribute('data-line'), '1');
      assert.equal(await lines.last().getAttribute('data-line'), String(SCRIPT_LINES.length));
      const numberWidth = await page.evaluate<number>(
        `parseFloat(getComputedStyle(document.querySelector('.files-preview .code-line'), '::before').width)`,
      );
      assert.ok(numberWidth > 0, 'the line number takes room beside the line');
      assert.equal((await page.locator('.files-preview pre').innerText()).split('\n')[0], SCRIPT_LINES[0]);
      assert.equal(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth'), true);
      await finish(session, `skill-page-files-${label}`);
    });
  }

  test('at 390 px every tab of the skill page is on the screen', async () => {
    const session = await openSession(browser, registry, { viewport: PHONE });
    const { page } = session;
    await page.goto('/skills/office-docs?tab=versions');
    await page.locator('.version-item').first().waitFor();
    const tabs = await boxes(page, '.tabs .tab');
    assert.equal(tabs.length, 6);
    for (const tab of tabs) assert.ok(tab.left >= 0 && tab.right <= PHONE.width, `a tab is cut off: ${JSON.stringify(tab)}`);
    assert.deepEqual(await overflowing(page, '.tabs'), []);
    await finish(session, 'skill-page-phone-tabs');
  });

  for (const [path, rows, firstLabel] of [
    ['/me/logs', '.logs-table tbody tr', 'Time'],
    ['/me/keys', '.table-scroll tbody tr', 'Name'],
    ['/me/skills/office-docs?tab=security', '.table-scroll tbody tr', 'Version'],
  ] as const) {
    test(`at 390 px ${path} shows every field of a row on the screen`, async () => {
      const session = await openSession(browser, registry, { viewport: PHONE, cookie: owner.cookie });
      const { page } = session;
      await page.goto(path);
      await page.locator(rows).first().waitFor();
      assert.deepEqual(await overflowing(page, '.table-scroll'), []);
      const cells = await boxes(page, `${rows} > *`);
      assert.ok(cells.length >= 6);
      for (const cell of cells) assert.ok(cell.left >= 0 && cell.right <= PHONE.width, `a cell is cut off: ${JSON.stringify(cell)}`);
      // Each value says what it is, the column headings being out of sight.
      assert.equal(
        await page.evaluate<string>(`getComputedStyle(document.querySelector('${rows} > *'), '::before').content`),
        `"${firstLabel}"`,
      );
      await finish(session, `phone-${path.slice(1).replace(/[^a-z]+/g, '-')}`);
    });
  }

  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`a long description leaves the download within the first screen (${label})`, async () => {
      const session = await openSession(browser, registry, { viewport });
      const { page } = session;
      await page.goto('/skills/office-docs');
      await page.locator('.markdown').waitFor();
      const download = page.getByRole('link', { name: /Download v1\.1\.0/ });
      const box = await download.boundingBox();
      assert.ok(box, 'the download is shown');
      assert.ok(box.y + box.height <= viewport.height, `the download ends at ${box.y + box.height}px, below the first screen`);
      const install = await page.locator('.install-command').first().boundingBox();
      assert.ok(install && install.y < viewport.height, 'the install command starts within the first screen');
      if (label === 'phone') {
        // The rest of the description is a tap away.
        const more = page.getByRole('button', { name: 'More' });
        await more.click();
        await page.getByRole('button', { name: 'Less' }).waitFor();
        const full = await page.evaluate<boolean>(
          `(() => { const el = document.querySelector('.clamped-text'); return el.scrollHeight <= el.clientHeight + 1; })()`,
        );
        assert.equal(full, true, 'the whole description shows');
      } else {
        assert.equal(await page.getByRole('button', { name: 'More' }).count(), 0, 'a wide screen shows the whole description');
      }
      await finish(session, `skill-page-long-description-${label}`);
    });
  }

  test('the Security tab says that links to documentation hosts are not listed', async () => {
    const session = await openSession(browser, registry, { viewport: DESKTOP });
    const { page } = session;
    await page.goto('/skills/office-docs?tab=security');
    await page.getByRole('heading', { name: 'Links in the package' }).waitFor();
    const text = await page.locator('.scan-findings').innerText();
    assert.match(text, /mentions no external URL/);
    assert.match(text, /Links to documentation and local hosts \(example\.com, \.test, localhost, private addresses\) are not listed/);
    await finish(session, 'skill-page-security-links');
  });

  test('front-matter metadata reads as a list of keys and values, nested ones too', async () => {
    const session = await openSession(browser, registry, { viewport: DESKTOP });
    const { page } = session;
    await page.goto('/skills/office-docs');
    await page.locator('.markdown').waitFor();
    const frontMatter = page.locator('.front-matter');
    assert.doesNotMatch(await frontMatter.innerText(), /[{}"]/, 'no raw JSON');
    const metadata = frontMatter.locator('dl.fm-map').first();
    const keys = await metadata.locator(':scope > div > dt').allInnerTexts();
    const values = await metadata.locator(':scope > div > dd').allInnerTexts();
    assert.deepEqual(keys, ['author', 'version', 'formats', 'support']);
    assert.deepEqual(values.slice(0, 2), ['acme', '2.1']);
    assert.deepEqual(await metadata.locator('ul.fm-list li').allInnerTexts(), ['docx', 'dotx']);
    const support = metadata.locator('dl.fm-map');
    assert.deepEqual(await support.locator('dt').allInnerTexts(), ['email', 'hours']);
    assert.deepEqual(await support.locator('dd').allInnerTexts(), ['help@example.com', 'weekdays']);
    await finish(session, 'skill-page-metadata');
  });

  test('a visitor is told they can sign in to report a skill, and signing in opens the report', async () => {
    const session = await openSession(browser, registry, { viewport: PHONE });
    const { page } = session;
    await page.goto('/skills/office-docs');
    const hint = page.locator('.sign-in-hint');
    await hint.waitFor();
    assert.equal(await hint.innerText(), 'Sign in to report this skill.');
    await hint.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Username or email').fill(visitor.username);
    await page.getByLabel('Password').fill(visitor.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('dialog', { name: 'Report “Office Documents”' }).waitFor();
    assert.match(page.url(), /\/skills\/office-docs\?report=1$/);
    assert.equal(await page.locator('.sign-in-hint').count(), 0);
    await finish(session, 'skill-page-sign-in-to-report');
  });
});
