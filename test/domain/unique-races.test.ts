import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { accountService } from '../../src/domain/accounts/accounts.js';
import type { User } from '../../src/domain/accounts/views.js';
import { SESSION_SCOPES, type Actor } from '../../src/domain/actor.js';
import { AppError } from '../../src/domain/errors.js';
import { skillService } from '../../src/domain/skills/skills.js';
import { versionService } from '../../src/domain/versions/versions.js';
import type { Services } from '../../src/services.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { skillMd, zip } from '../helpers/archives.js';
import { backends } from '../helpers/backends.js';

function sessionOf(user: User): Extract<Actor, { kind: 'session' }> {
  return {
    kind: 'session',
    user: { id: user.id, username: user.username, role: user.role },
    sessionId: `session-of-${user.id}`,
    scopes: SESSION_SCOPES,
  };
}

async function refused(operation: Promise<unknown>, status: number, code: string, detail: string): Promise<void> {
  await assert.rejects(operation, (error: unknown) => {
    assert.ok(error instanceof AppError, `expected an AppError, got ${String(error)}`);
    assert.deepEqual({ status: error.status, code: error.code, detail: error.detail }, { status, code, detail });
    return true;
  });
}

/**
 * Two requests racing for one name, one slug or one version both pass the early look-up; the database's unique
 * index then decides, and the loser gets the same answer it would have had a moment later. Each race is played
 * out by a service whose early look-up is made to miss the winner's row.
 */
for (const backend of backends()) {
  describe(`unique-constraint races (${backend.name})`, () => {
    let t: TestApp;
    let services: Services;
    let owner: User;
    const noInvalidation = { forgetUser: () => undefined, forgetCredential: () => undefined };

    before(async () => {
      t = await startApp(backend);
      services = t.runtime.services;
      owner = await services.accounts.register({ username: 'owner', email: 'owner@example.com', password: 'owner-password-1' });
    });
    after(() => t.close());

    const count = async (table: 'users' | 'skills' | 'versions') =>
      (
        await t.runtime.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;

    it('two registrations with one username: the second is 409 username_taken, one with one email 409 email_taken', async () => {
      const { users, sessions } = services.repositories;
      const racing = { ...users, findByUsername: () => Promise.resolve(undefined), emailTaken: () => Promise.resolve(false) };
      const accounts = accountService({ users: racing, sessions, config: t.config, invalidation: noInvalidation });
      const before = await count('users');
      await refused(
        accounts.register({ username: 'owner', email: 'someone-else@example.com', password: 'other-password-1' }),
        409,
        'username_taken',
        'The username "owner" is taken.',
      );
      await refused(
        accounts.register({ username: 'someone-else', email: 'Owner@Example.com', password: 'other-password-1' }),
        409,
        'email_taken',
        'An account with this email already exists.',
      );
      assert.equal(await count('users'), before, 'the losers wrote nothing');
    });

    it('two skills with one slug: the second is 409 slug_taken, alone or created with its first version', async () => {
      const existing = await services.skills.create(sessionOf(owner), { name: 'Raced Skill', slug: 'raced-skill' });
      const racingSkills = skillService({
        skills: { ...services.repositories.skills, slugTaken: () => Promise.resolve(false) },
        skillChanges: services.repositories.skillChanges,
      });
      await refused(
        racingSkills.create(sessionOf(owner), { name: 'Other', slug: existing.slug }),
        409,
        'slug_taken',
        'The slug "raced-skill" is taken; choose another.',
      );

      const versions = versionService({
        skillService: racingSkills,
        versions: services.repositories.versions,
        scans: services.repositories.scans,
        blobs: services.blobs,
        downloads: services.downloads,
        maxUploadBytes: t.config.maxUploadBytes,
      });
      const skills = await count('skills');
      const staged = await versions.stage(Readable.from(await zip([{ path: 'SKILL.md', content: skillMd('raced-skill') }])));
      await refused(
        versions.publishWithSkill(sessionOf(owner), { name: 'Other', slug: existing.slug }, { version: '1.0.0' }, staged),
        409,
        'slug_taken',
        'The slug "raced-skill" is taken; choose another.',
      );
      assert.equal(await count('skills'), skills, 'the loser created no skill');
      assert.deepEqual((await services.versions.list(sessionOf(owner), existing.slug, { page: 1, pageSize: 10 })).items, []);
    });

    it('two uploads of one version: the second is 409 version_exists and writes nothing', async () => {
      const skill = await services.skills.create(sessionOf(owner), { name: 'Versioned Skill' });
      const upload = async (service: Pick<Services['versions'], 'stage' | 'publish'>, description: string) =>
        service.publish(
          sessionOf(owner),
          skill.slug,
          { version: '1.0.0' },
          await service.stage(Readable.from(await zip([{ path: 'SKILL.md', content: skillMd('v', description) }]))),
        );
      const first = await upload(services.versions, 'first');
      const racing = versionService({
        skillService: services.skills,
        versions: { ...services.repositories.versions, exists: () => Promise.resolve(false) },
        scans: services.repositories.scans,
        blobs: services.blobs,
        downloads: services.downloads,
        maxUploadBytes: t.config.maxUploadBytes,
      });
      const before = await count('versions');
      await refused(
        upload(racing, 'second'),
        409,
        'version_exists',
        `Version 1.0.0 of skill '${skill.slug}' already exists; versions are immutable.`,
      );
      assert.equal(await count('versions'), before);
      const stored = await services.versions.get(sessionOf(owner), skill.slug, '1.0.0');
      assert.equal(stored.sha256, first.sha256, 'the first upload stands');
    });
  });
}
