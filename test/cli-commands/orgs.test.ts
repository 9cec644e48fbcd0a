import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, expectStatus, json, uniqueName } from '../helpers/client.js';
import {
  cli,
  cliBackend,
  parsed,
  publishAsAdmin,
  removeDir,
  skillMdText,
  startRegistry,
  tempDir,
  uploader,
  writeTree,
  type CliResult,
  type Registry,
} from './harness.js';

interface OrgJson {
  handle: string;
  display_name: string;
  role: string | null;
}

interface InvitationJson {
  id: string;
  organisation: string;
  username: string;
  role: string;
}

interface ErrorJson {
  error: { status: number; code: string; detail: string };
}

interface PublishJson {
  created: boolean;
  skill: { id: string; slug: string; scope: string | null; full_name: string; owner: { kind: string; handle: string } };
  version: { version: string };
}

interface InstallJson {
  installed: { skill: string; version: string; path: string }[];
}

type User = Awaited<ReturnType<typeof uploader>>;

function readLock(dir: string): { skills: Record<string, { full_name: string; skill_id: string; version: string }> } {
  return JSON.parse(readFileSync(path.join(dir, 'skills-lock.json'), 'utf8')) as ReturnType<typeof readLock>;
}

const backend = cliBackend();

describe(`command line: organisations and scoped skills (${backend.name})`, () => {
  let registry: Registry;
  let home: string;
  let alice: User;
  let bob: User;
  let carol: User;

  before(async () => {
    registry = await startRegistry(backend);
    home = tempDir();
    [alice, bob, carol] = await Promise.all([uploader(registry.t), uploader(registry.t), uploader(registry.t)]);
  });
  after(async () => {
    await registry.close();
    removeDir(home);
  });

  /** Runs the command line as `user` (with their upload key), or anonymously. */
  function as(user: User | null, args: string[]): Promise<CliResult> {
    const env: Record<string, string> = { SKILL_REGISTRY_URL: registry.url };
    if (user !== null) env.SKILL_REGISTRY_TOKEN = user.key;
    return cli(args, { home, env });
  }

  /** The command failed with this exit code, and with --json printed the registry's problem code. */
  function failed(result: CliResult, code: number, problem?: string): void {
    assert.equal(result.code, code, `exit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
    assert.match(result.stderr, /^error: /m);
    if (problem !== undefined) assert.equal(parsed<ErrorJson>(result).error.code, problem);
  }

  function ok(result: CliResult): CliResult {
    assert.equal(result.code, 0, `exit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
    return result;
  }

  it('creates an organisation, invites, accepts and declines, changes roles, lets members leave and keeps the last owner', async () => {
    const handle = uniqueName('org-');
    const created = parsed<OrgJson>(ok(await as(alice, ['org', 'create', handle, '--display-name', 'Acme Tools', '--json'])));
    assert.deepEqual([created.handle, created.display_name, created.role], [handle, 'Acme Tools', 'owner']);

    const [shown, toBob, toCarol, help] = await Promise.all([
      as(null, ['org', 'show', `@${handle}`]),
      as(alice, ['org', 'invite', handle, bob.username, '--role', 'publisher', '--json']),
      as(alice, ['org', 'invite', handle, carol.username, '--role', 'admin']),
      as(null, ['org', '--help']),
    ]);
    assert.match(ok(shown).stdout, new RegExp(`^${handle} — Acme Tools\n`));
    assert.match(shown.stdout, /your role: not a member/);
    assert.match(shown.stdout, /No skills\./);
    const bobInvite = parsed<InvitationJson>(ok(toBob));
    assert.deepEqual([bobInvite.organisation, bobInvite.username, bobInvite.role], [handle, bob.username, 'publisher']);
    assert.match(
      ok(toCarol).stdout,
      new RegExp(`Invited ${carol.username} to ${handle} as admin.*\nThey accept with: skill-registry org accept \\S+`),
    );
    for (const action of ['org create HANDLE', 'org invite HANDLE USERNAME --role ROLE', 'org invitations [HANDLE]', 'org leave HANDLE'])
      assert.ok(ok(help).stdout.includes(action), action);

    const [orgInvitations, bobWaiting, carolWaiting] = await Promise.all([
      as(alice, ['org', 'invitations', handle, '--json']),
      as(bob, ['org', 'invitations', '--json']),
      as(carol, ['org', 'invitations']),
    ]);
    assert.deepEqual(
      parsed<{ items: InvitationJson[] }>(ok(orgInvitations))
        .items.map((i) => i.username)
        .sort(),
      [bob.username, carol.username].sort(),
    );
    assert.deepEqual(
      parsed<{ items: InvitationJson[] }>(ok(bobWaiting)).items.map((i) => i.id),
      [bobInvite.id],
    );
    const carolId = /^(\S+)\s+/m.exec(ok(carolWaiting).stdout.split('\n')[1] ?? '')?.[1] ?? '';
    assert.match(carolWaiting.stdout, /Answer with: skill-registry org accept ID/);

    const [accepted, declined, notInvitee] = await Promise.all([
      as(bob, ['org', 'accept', bobInvite.id, '--json']),
      as(carol, ['org', 'decline', carolId]),
      as(carol, ['org', 'accept', bobInvite.id, '--json']),
    ]);
    assert.equal(parsed<OrgJson>(ok(accepted)).role, 'publisher');
    assert.equal(ok(declined).stdout, `Declined invitation ${carolId}.\n`);
    // Bob's invitation is answered by the time Carol's accept arrives, or is not hers to answer: either way refused.
    assert.ok([3, 4].includes(notInvitee.code ?? 0), notInvitee.stderr);

    const [promoted, stepDown, leaveAlone, noOrg] = await Promise.all([
      as(alice, ['org', 'role', handle, bob.username, 'admin', '--json']),
      as(alice, ['org', 'role', handle, alice.username, 'publisher', '--json']),
      as(alice, ['org', 'leave', handle, '--json']),
      as(alice, ['org', 'show', uniqueName('no-org-'), '--json']),
    ]);
    assert.equal(parsed<{ role: string }>(ok(promoted)).role, 'admin');
    failed(stepDown, 5, 'last_owner');
    failed(leaveAlone, 5, 'last_owner');
    failed(noOrg, 4, 'org_not_found');

    const [members, mine, left] = await Promise.all([
      as(bob, ['org', 'members', handle]),
      as(bob, ['org', 'list', '--json']),
      as(carol, ['org', 'members', handle, '--json']),
    ]);
    ok(members);
    assert.match(members.stdout, /^USERNAME\s+ROLE\s+SINCE$/m);
    assert.match(members.stdout, new RegExp(`^${alice.username}\\s+owner\\s`, 'm'));
    assert.match(members.stdout, new RegExp(`^${bob.username}\\s+admin\\s`, 'm'));
    assert.deepEqual(
      parsed<{ items: OrgJson[] }>(ok(mine)).items.map((o) => [o.handle, o.role]),
      [[handle, 'admin']],
    );
    failed(left, 3, 'org_role_required');

    const leaving = parsed<{ removed: string }>(ok(await as(bob, ['org', 'leave', handle, '--json'])));
    assert.equal(leaving.removed, bob.username);
    const [afterLeaving, unknownUser] = await Promise.all([
      as(bob, ['org', 'invite', handle, carol.username, '--role', 'admin', '--json']),
      as(alice, ['org', 'invite', handle, uniqueName('nobody'), '--role', 'admin', '--json']),
    ]);
    failed(afterLeaving, 3, 'org_role_required');
    failed(unknownUser, 4, 'user_not_found');
  });

  it('refuses malformed org command lines with exit 2 before asking the registry anything', async () => {
    const results = await Promise.all([
      as(alice, ['org']),
      as(alice, ['org', 'frobnicate']),
      as(alice, ['org', 'accept']),
      as(alice, ['org', 'invite', 'acme', 'bob']),
      as(alice, ['org', 'role', 'acme', 'bob', 'king']),
      as(alice, ['org', 'create', 'x', '--role', 'admin']),
    ]);
    for (const result of results) failed(result, 2);
    assert.match(results[0].stderr, /Say what to do: org list, create/);
    assert.match(results[2].stderr, /Usage: skill-registry org accept INVITATION_ID/);
    assert.match(results[3].stderr, /Give the role with --role: owner, admin, publisher\./);
    assert.match(results[4].stderr, /Unknown role "king"; the roles are owner, admin, publisher\./);
  });

  it('publishes into a scope, installs @scope/slug into the folder of its slug, and refuses another skill of that slug', async () => {
    const [acme, other] = [uniqueName('acme-'), uniqueName('other-')];
    await Promise.all(
      [acme, other].map(async (handle) => expectStatus(await call(registry.t, 'POST', '/v1/orgs', { key: alice.key }, { handle }), 201)),
    );
    const slug = uniqueName('pdf-tools-');
    const folder = writeTree(path.join(home, 'src', slug), { 'SKILL.md': skillMdText(slug), 'run.sh': 'echo run\n' });
    const publish = (user: User, ...args: string[]) => as(user, ['publish', folder, ...args, '--json']);

    const [first, mineToo, outsider, badScope] = await Promise.all([
      publish(alice, '--scope', acme, '--version', '1.0.0'),
      publish(alice, '--slug', `@${other}/${slug}`, '--version', '1.0.0'),
      publish(carol, '--scope', acme, '--version', '1.0.0'),
      publish(carol, '--scope', 'not a handle', '--version', '1.0.0'),
    ]);
    const created = parsed<PublishJson>(ok(first));
    assert.equal(created.created, true);
    assert.deepEqual(
      [created.skill.slug, created.skill.scope, created.skill.full_name, created.skill.owner.kind, created.skill.owner.handle],
      [slug, acme, `@${acme}/${slug}`, 'organisation', acme],
    );
    const otherSkill = parsed<PublishJson>(ok(mineToo)).skill;
    assert.equal(otherSkill.full_name, `@${other}/${slug}`);
    failed(outsider, 3, 'scope_not_allowed');
    failed(badScope, 2);

    // The scoped skill exists now: publishing uploads a new version of it.
    const second = parsed<PublishJson>(ok(await publish(alice, '--scope', `@${acme}`, '--version', '1.1.0', '--changelog', 'Second')));
    assert.deepEqual([second.created, second.skill.id, second.version.version], [false, created.skill.id, '1.1.0']);
    await Promise.all([publishAsAdmin(registry.t, created.skill.id), publishAsAdmin(registry.t, otherSkill.id)]);

    const dir = path.join(home, 'skills');
    const [install, info] = await Promise.all([
      as(null, ['install', `@${acme}/${slug}@1.0.0`, '--dir', dir, '--json']),
      as(null, ['info', `@${acme}/${slug}`]),
    ]);
    const installed = parsed<InstallJson>(ok(install)).installed[0]!;
    assert.deepEqual([installed.skill, installed.version, installed.path], [`@${acme}/${slug}`, '1.0.0', path.join(dir, slug)]);
    assert.ok(existsSync(path.join(dir, slug, 'SKILL.md')));
    const lock = readLock(dir);
    assert.deepEqual(Object.keys(lock.skills), [slug]);
    assert.deepEqual(
      [lock.skills[slug]?.full_name, lock.skills[slug]?.skill_id, lock.skills[slug]?.version],
      [`@${acme}/${slug}`, created.skill.id, '1.0.0'],
    );
    assert.match(ok(info).stdout, new RegExp(`^@${acme}/${slug} — `));
    assert.match(info.stdout, new RegExp(`owner: ${acme} \\(organisation\\)`));
    assert.match(info.stdout, new RegExp(`Install: skill-registry install @${acme}/${slug}\n`));
    // Another skill with the same slug would take the same folder: refused, even with --force, nothing changed.
    const [clash, forced] = await Promise.all([
      as(null, ['install', `@${other}/${slug}`, '--dir', dir]),
      as(null, ['install', `@${other}/${slug}`, '--dir', dir, '--force', '--json']),
    ]);
    failed(clash, 5);
    assert.match(clash.stderr, new RegExp(`holds @${acme}/${slug}, and @${other}/${slug} would be installed into the same folder`));
    assert.match(clash.stderr, new RegExp(`skill-registry uninstall @${acme}/${slug}`));
    failed(forced, 5, 'cli_error');
    assert.equal(readLock(dir).skills[slug]?.full_name, `@${acme}/${slug}`, 'the lock file is unchanged');

    // list, update and uninstall know the skill by its full name as well as by its folder.
    const listed = ok(await as(null, ['list', '--dir', dir]));
    assert.match(listed.stdout, new RegExp(`^@${acme}/${slug} \\(${slug}/\\)\\s+1\\.0\\.0\\s+installed`, 'm'));
    const updated = parsed<{ updated: { skill: string; version: string }[] }>(
      ok(await as(null, ['update', `@${acme}/${slug}`, '--dir', dir, '--json'])),
    );
    assert.deepEqual(
      updated.updated.map((u) => [u.skill, u.version]),
      [[`@${acme}/${slug}`, '1.1.0']],
    );
    ok(await as(null, ['uninstall', `@${acme}/${slug}`, '--dir', dir]));
    assert.ok(!existsSync(path.join(dir, slug)));
    const now = parsed<InstallJson>(ok(await as(null, ['install', `@${other}/${slug}`, '--dir', dir, '--json'])));
    assert.equal(now.installed[0]?.skill, `@${other}/${slug}`);

    // A malformed scoped reference is a usage error.
    const [malformed, page] = await Promise.all([as(null, ['install', `@${acme}`, '--dir', dir]), as(null, ['org', 'show', acme])]);
    failed(malformed, 2);
    // The organisation's page lists the skill by its full name.
    assert.match(ok(page).stdout, new RegExp(`@${acme}/${slug}\\s+published\\s+1\\.1\\.0`));
    assert.equal(json<{ total: number }>(await call(registry.t, 'GET', `/v1/orgs/${acme}/skills`)).total, 1);
  });
  it('offers a skill to an organisation, which accepts; renames it; old names keep working for info', async () => {
    const handle = uniqueName('org-');
    ok(await as(bob, ['org', 'create', handle]));
    const slug = uniqueName('given-');
    const created = json<{ id: string }>(
      expectStatus(await call(registry.t, 'POST', '/v1/skills', { key: alice.key }, { name: 'Given', slug, scope: alice.username }), 201),
    );
    const offered = parsed<{ id: string; new_name: string }>(
      ok(await as(alice, ['transfer', 'offer', `@${alice.username}/${slug}`, `@${handle}`, '--json'])),
    );
    assert.equal(offered.new_name, `@${handle}/${slug}`);
    const [listed, refused, badLine] = await Promise.all([
      as(bob, ['transfer', 'list']),
      as(carol, ['transfer', 'accept', offered.id, '--json']),
      as(bob, ['transfer', 'rename', slug]),
    ]);
    assert.match(ok(listed).stdout, new RegExp(`${offered.id}\\s+@${alice.username}/${slug}\\s+${handle}\\s+@${handle}/${slug}`));
    failed(refused, 3, 'not_receiver');
    failed(badLine, 2);
    assert.match(ok(await as(bob, ['transfer', 'accept', offered.id])).stdout, new RegExp(`is now @${handle}/${slug}`));
    const renamed = parsed<{ full_name: string }>(ok(await as(bob, ['transfer', 'rename', `@${handle}/${slug}`, `${slug}-kit`, '--json'])));
    assert.equal(renamed.full_name, `@${handle}/${slug}-kit`);
    // Both old names still find the skill (the client follows the registry's 308).
    const [byFirst, bySecond] = await Promise.all([
      as(bob, ['info', `@${alice.username}/${slug}`, '--json']),
      as(bob, ['info', `@${handle}/${slug}`, '--json']),
    ]);
    for (const result of [byFirst, bySecond]) assert.equal(parsed<{ skill: { id: string } }>(ok(result)).skill.id, created.id);
  });
});
