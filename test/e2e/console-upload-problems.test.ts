/**
 * The console's upload form in a real browser, for refused packages: every problem listed entry by entry, and for
 * SKILL.md front matter that is not YAML, the corrected front matter to copy. At desktop and phone widths.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { tarGz, zip } from '../helpers/archives.js';
import { ifSet } from '../helpers/hooks.js';
import { closeLeftovers, finish, launchBrowser, openSession, startRegistry, type Registry } from './harness.js';

const PHONE = { width: 390, height: 844 };

describe('web console: refused uploads', () => {
  let registry: Registry;
  let browser: Browser;
  let cookie: string;

  before(async () => {
    registry = await startRegistry();
    browser = await launchBrowser();
    cookie = (await registry.api.user('fiona')).cookie;
    await registry.api.skill(cookie, { name: 'Doc Tools', slug: 'doc-tools', description: 'Edits documents.' });
  });

  afterEach(async (t) => closeLeftovers(t.name));

  after(async () => {
    await ifSet(browser)?.close();
    await ifSet(registry)?.close();
  });

  for (const [label, viewport] of [
    ['desktop', undefined],
    ['phone', PHONE],
  ] as const) {
    test(`an upload refused for its front matter shows the corrected front matter (${label})`, async () => {
      const session = await openSession(browser, registry, { cookie, ...(viewport ? { viewport } : {}) });
      const { page } = session;
      await page.goto('/me/skills/doc-tools?tab=upload');
      await page.getByRole('heading', { name: 'Doc Tools', level: 1 }).waitFor();
      const archive = await zip([
        {
          path: 'SKILL.md',
          content:
            '---\nname: doc-tools\ndescription: Use when: updating documents, spreadsheets or slides\nlicense: MIT\n---\n\n# Doc tools\n',
        },
      ]);
      await page.locator('input[type=file]').setInputFiles({ name: 'doc-tools.zip', mimeType: 'application/zip', buffer: archive });
      await page.getByLabel('Version', { exact: true }).fill('1.0.0');
      await page.getByRole('button', { name: 'Upload version' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'The registry refused this upload' });
      await alert.waitFor();
      await alert.locator('.front-matter-fix').getByText('line 3 should read').waitFor();
      const corrected = await alert.getByLabel('Corrected front matter').innerText();
      assert.equal(
        corrected.trim(),
        '---\nname: doc-tools\ndescription: "Use when: updating documents, spreadsheets or slides"\nlicense: MIT\n---',
      );
      await alert.getByRole('button', { name: 'Copy the corrected front matter' }).click();
      assert.match(await page.evaluate('navigator.clipboard.readText()'), /description: "Use when: updating documents/);
      // Nothing of the answer runs past the screen's edge.
      const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      assert.equal(overflow, 0, 'no sideways scrolling');
      await alert.scrollIntoViewIfNeeded();
      await finish(session, `upload-front-matter-fix-${label}`);
    });
  }

  test('checking a package lists every problem, entry by entry (phone)', async () => {
    const session = await openSession(browser, registry, { cookie, viewport: PHONE });
    const { page } = session;
    await page.goto('/me/skills/doc-tools?tab=upload');
    await page.getByRole('heading', { name: 'Doc Tools', level: 1 }).waitFor();
    const archive = await tarGz([
      { path: '../escape.txt', content: 'outside\n' },
      { path: 'scripts/run.sh', content: 'echo hi\n' },
    ]);
    await page.locator('input[type=file]').setInputFiles({ name: 'escape.tar.gz', mimeType: 'application/gzip', buffer: archive });
    await page.getByRole('button', { name: 'Check package only' }).click();
    const status = page.getByRole('status').filter({ hasText: 'This package would be refused' });
    await status.waitFor();
    const items = await status.locator('.field-errors li').allInnerTexts();
    assert.equal(items.length, 2, items.join('\n'));
    assert.match(items[0]!, /\.\.\/escape\.txt/);
    assert.match(items[1]!, /no SKILL\.md/);
    await finish(session, 'check-package-every-problem-phone');
  });
});
