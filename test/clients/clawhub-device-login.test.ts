/**
 * `clawhub login` without a token, end to end: the real command line (npm `clawhub` 0.23.3 on the Node 22 it needs)
 * asks a registry on 127.0.0.1 for a device code and prints it with the console's /device address; a person in a real
 * browser (Chromium through playwright-core) opens that address, signs in, types the code and approves or refuses it;
 * the command, polling on its own, then saves a key of theirs (`clawhub whoami` names them) or stops with the refusal.
 * A code nobody answers expires: the registry's clock is moved past its 10 minutes instead of waiting for them.
 * test/clients/clawhub-cli.test.ts covers the same flow approved through the API, without a browser.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEVICE_CODE_TTL_SECONDS } from '../../src/domain/clawhub/device.js';
import { Api, closeLeftovers, ensureConsoleBuilt, finish, launchBrowser, openSession, type Registry } from '../e2e/harness.js';
import { withStoppedClock } from '../helpers/clock.js';
import { call, expectStatus, json, registerUser, type TestUser } from '../helpers/client.js';
import { ifSet } from '../helpers/hooks.js';
import { installPinnedClient, servedRegistry, type PinnedClient, type ServedRegistry } from './pinned-client.js';

/** The longest a login may take: the client polls every 5 seconds, and a browser on a busy machine is slow. */
const LOGIN_LIMIT_MS = 90_000;

interface Run {
  code: number | null;
  output: string;
}

/** What `clawhub login` prints before it starts polling: where to go, and the code to type there. */
interface Shown {
  url: string;
  userCode: string;
}

// eslint-disable-next-line no-control-regex -- the client colours its output with ANSI escapes
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/**
 * Runs the client against `base` with its config file in `home`, telemetry off and no browser of its own (0.23.3
 * prints the address and opens none; `--no-browser` keeps it so). `onShown` is called once with the address and code
 * the client prints; should the promise it returns fail, the process is killed and the run fails with that error. The
 * process is killed, and the run fails, too if it has not ended within LOGIN_LIMIT_MS.
 */
function clawhub(
  client: PinnedClient,
  args: string[],
  home: string,
  base: string,
  onShown?: (shown: Shown) => Promise<unknown>,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(client.node, [client.cli, '--no-input', ...args], {
      cwd: home,
      env: {
        PATH: `${path.dirname(client.node)}:${process.env.PATH ?? ''}`,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        CLAWHUB_CONFIG_PATH: path.join(home, 'clawhub.json'),
        CLAWHUB_SITE: base,
        CLAWHUB_DISABLE_TELEMETRY: '1',
        NO_COLOR: '1',
        CI: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: LOGIN_LIMIT_MS,
    });
    let output = '';
    let shown = false;
    let answerFailed: Error | undefined;
    const take = (data: Buffer) => {
      output += data.toString();
      if (shown || onShown === undefined) return;
      const text = plain(output);
      const url = /To authenticate, visit:\s+(\S+)/.exec(text)?.[1];
      const userCode = /enter code:\s+([A-Z2-9]{4}-[A-Z2-9]{4})\b/.exec(text)?.[1];
      if (url === undefined || userCode === undefined) return;
      shown = true;
      // The person's side failing (the page, the browser) ends the command at once and is what the run reports,
      // rather than a command polling until its time is up.
      onShown({ url, userCode }).catch((error: unknown) => {
        answerFailed = error instanceof Error ? error : new Error('answering the code failed', { cause: error });
        child.kill();
      });
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (answerFailed !== undefined) reject(answerFailed);
      else if (signal !== null)
        reject(new Error(`clawhub ${args.join(' ')} was stopped (${signal}) after ${LOGIN_LIMIT_MS} ms:\n${plain(output)}`));
      else resolve({ code, output: plain(output) });
    });
  });
}

/** As a person would: the printed address, the sign-in it sends them to, then the code typed and answered. */
async function answerInBrowser(browser: Browser, registry: Registry, user: TestUser, shown: Shown, answer: 'Approve' | 'Refuse') {
  const session = await openSession(browser, registry);
  const { page } = session;
  await page.goto(shown.url);
  await page.waitForURL('**/signin?next=*');
  await page.getByLabel('Username or email').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Sign in a command line' }).waitFor();
  await typeCode(page, shown.userCode);
  await page.getByRole('button', { name: answer }).click();
  await page.getByRole('heading', { name: answer === 'Approve' ? 'Command line signed in' : 'Sign-in refused' }).waitFor();
  return session;
}

/** Typed as read off the terminal, in lower case: the page takes it either way. */
async function typeCode(page: Page, userCode: string) {
  await page.getByLabel('Code').fill(userCode.toLowerCase());
}

describe('`clawhub login` through the console in a browser', { timeout: 300_000 }, () => {
  let client: PinnedClient;
  let served: ServedRegistry | undefined;
  let registry: Registry;
  let browser: Browser | undefined;

  before(async () => {
    client = installPinnedClient('clawhub-cli', 'clawhub', '0.23.3', 'bin/clawdhub.js');
    await ensureConsoleBuilt();
    served = await servedRegistry('clawhub-device-');
    // The browser harness's view of the same registry (servedRegistry closes it).
    registry = { app: served.t, baseUrl: served.base, api: new Api(served.base), close: () => Promise.resolve() };
    browser = await launchBrowser();
  });
  afterEach(async (t) => closeLeftovers(t.name));
  after(async () => {
    await ifSet(browser)?.close();
    await ifSet(served)?.close();
  });

  it('approved on /device: the command saves a key of the signed-in user and whoami names them', async () => {
    assert.ok(served && browser);
    const { t, scratch, base } = served;
    const user = await registerUser(t);
    const home = mkdtempSync(path.join(scratch, 'home-'));
    let answered: Promise<Awaited<ReturnType<typeof answerInBrowser>>> | undefined;
    const login = await clawhub(client, ['login', '--no-browser'], home, base, (shown) => {
      assert.equal(shown.url, `${base}/device`, 'the client prints the console page the registry names');
      answered = answerInBrowser(browser!, registry, user, shown, 'Approve');
      return answered;
    });
    assert.ok(answered, `login printed an address and a code: ${login.output}`);
    const session = await answered;
    assert.equal(login.code, 0, login.output);
    assert.match(login.output, /Authorized/);
    assert.match(login.output, new RegExp(`Logged in as @${user.username}`));

    // The key the page lists is the one the command saved.
    await session.page.getByText('clawhub: CLI device login').waitFor();
    await finish(session, 'clawhub-device-login-approved');
    const config = JSON.parse(readFileSync(path.join(home, 'clawhub.json'), 'utf8')) as { registry: string; token: string };
    assert.equal(config.registry, base);
    const keys = json<{ items: { name: string; scopes: string[] }[] }>(
      expectStatus(await call(t, 'GET', '/v1/me/api-keys', user.session), 200),
    ).items;
    assert.deepEqual(
      keys.map((k) => [k.name, k.scopes]),
      [['clawhub: CLI device login', ['skill:upload']]],
    );

    const whoami = await clawhub(client, ['whoami'], home, base);
    assert.equal(whoami.code, 0, whoami.output);
    assert.ok(whoami.output.includes(user.username), `whoami prints the user: ${whoami.output}`);
  });

  it('refused on /device: the command stops with the refusal and saves no key', async () => {
    assert.ok(served && browser);
    const { t, scratch, base } = served;
    const user = await registerUser(t);
    const home = mkdtempSync(path.join(scratch, 'home-'));
    let answered: Promise<Awaited<ReturnType<typeof answerInBrowser>>> | undefined;
    const login = await clawhub(client, ['login', '--no-browser'], home, base, (shown) => {
      answered = answerInBrowser(browser!, registry, user, shown, 'Refuse');
      return answered;
    });
    assert.ok(answered, `login printed an address and a code: ${login.output}`);
    await finish(await answered, 'clawhub-device-login-refused');
    assert.notEqual(login.code, 0, login.output);
    assert.match(login.output, /Authorization denied by user/);
    assert.doesNotMatch(login.output, /Logged in as/);
    const keys = json<{ items: unknown[] }>(expectStatus(await call(t, 'GET', '/v1/me/api-keys', user.session), 200)).items;
    assert.deepEqual(keys, [], 'no key was made');

    const whoami = await clawhub(client, ['whoami'], home, base);
    assert.notEqual(whoami.code, 0, `whoami without a saved key fails: ${whoami.output}`);
  });

  it('left unanswered past its 10 minutes: the command stops, the code expired', async () => {
    assert.ok(served);
    const { scratch, base } = served;
    const home = mkdtempSync(path.join(scratch, 'home-'));
    // The registry runs in this process: its clock is stopped, and moved on once the code is shown. The client's
    // first poll (its own 5 seconds later) then finds the code past its time.
    const login = await withStoppedClock((advance) =>
      clawhub(client, ['login', '--no-browser'], home, base, () => {
        advance((DEVICE_CODE_TTL_SECONDS + 1) * 1000);
        return Promise.resolve();
      }),
    );
    assert.notEqual(login.code, 0, login.output);
    assert.match(login.output, /Device code expired\. Please try again\./, 'the registry answered expired_token');
  });
});
