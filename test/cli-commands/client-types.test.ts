/**
 * Type-level checks of the typed client, verified by `npm run typecheck` (tsc over test/): response fields carry
 * the types of the server's schemas, and wrong uses do not compile. The runtime test below only makes sure
 * the file is part of the suite; the assertions that matter fail the type check, not the run.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Static } from 'typebox';
import type {
  ApiKeyCreated,
  CallLog,
  FeedbackList,
  Invitation,
  ListSkillsQuery,
  Me,
  Member,
  Organisation,
  PackageValidation,
  Problem,
  RegistryClient,
  ScanReport,
  ScanSummary,
  Skill,
  SkillList,
  Stats,
  UploadFields,
  Version,
  WithPackageFields,
} from '@skill-registry/client';
import type { Skill as SkillSchema } from '@skill-registry/api-schemas/skills';

/** True exactly when A and B are the same type. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the generic signatures compare A and B strictly (any and unions included)
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- T is there only to be checked against `true` by tsc
function expectType<T extends true>(): T | undefined {
  return undefined;
}

type Resolved<P> = P extends Promise<infer R> ? R : never;

// Response fields are typed as the schema says.
expectType<Equals<Skill['latest_version'], string | null>>();
expectType<Equals<Skill['status'], 'draft' | 'published' | 'deprecated'>>();
expectType<Equals<Skill['owner'], { kind: 'user' | 'organisation'; id: string; handle: string; username: string }>>();
expectType<Equals<Skill['scope'], string | null>>();
expectType<Equals<Skill, Static<typeof SkillSchema>>>();
expectType<Equals<SkillList['items'][number], Skill>>();
expectType<Equals<Version['archive_format'], 'zip' | 'tar.gz'>>();
expectType<Equals<Version['size'], number>>();
expectType<Equals<Me['auth']['kind'], 'session' | 'api_key'>>();
expectType<Equals<Me['user']['role'], 'user' | 'admin'>>();
expectType<Equals<ApiKeyCreated['scopes'], 'skill:upload'[]>>();
expectType<Equals<CallLog['status_code'], number>>();
expectType<Equals<FeedbackList['summary']['average_rating'], number | null>>();
expectType<Equals<Stats['daily'][number], { date: string; downloads: number }>>();
expectType<Equals<PackageValidation['valid'], boolean>>();
expectType<Equals<NonNullable<Problem['errors']>[number]['entry'], string | undefined>>();
// Methods return those types.
expectType<Equals<Resolved<ReturnType<RegistryClient['skills']['get']>>, Skill>>();
expectType<Equals<Resolved<ReturnType<RegistryClient['versions']['createSkill']>>, { skill: Skill; version: Version }>>();
expectType<Equals<Resolved<ReturnType<RegistryClient['me']['get']>>, Me>>();
expectType<Equals<Resolved<ReturnType<RegistryClient['versions']['scan']>>, ScanReport>>();
expectType<Equals<Version['scan'], ScanSummary>>();
expectType<Equals<NonNullable<ScanSummary>['verdict'], 'clean' | 'notice' | 'suspicious' | 'malicious'>>();
expectType<Equals<ScanReport['findings'][number]['line'], number | null>>();
// Organisations: their records and the methods answering them.
expectType<Equals<Organisation['role'], 'owner' | 'admin' | 'publisher' | null>>();
expectType<Equals<Member['role'], 'owner' | 'admin' | 'publisher'>>();
expectType<Equals<Invitation['invited_by'], string | null>>();
expectType<Equals<Skill['full_name'], string>>();
expectType<Equals<Resolved<ReturnType<RegistryClient['orgs']['create']>>, Organisation>>();
expectType<Equals<Resolved<ReturnType<RegistryClient['orgs']['members']>>['items'][number], Member>>();
expectType<Equals<Resolved<ReturnType<RegistryClient['me']['invitations']['list']>>['items'][number], Invitation>>();
expectType<Equals<Resolved<ReturnType<RegistryClient['me']['invitations']['accept']>>, Organisation>>();
expectType<Equals<Resolved<ReturnType<RegistryClient['me']['orgs']>>['items'][number], Organisation>>();
// Requests are checked against the request schemas.
expectType<Equals<UploadFields, { version: string; changelog?: string; metadata?: string }>>();
expectType<Equals<WithPackageFields['tags'], string[] | undefined>>();

export function wrongUses(client: RegistryClient, skill: Skill): unknown[] {
  // @ts-expect-error the skill record has no such field
  const stars: unknown = skill.stars;
  // @ts-expect-error sort is one of latest, downloads, featured
  const query: ListSkillsQuery = { sort: 'stars' };
  // @ts-expect-error a version upload needs its version
  void client.versions.upload('pdf-tools', { changelog: 'no version' }, new Uint8Array());
  // @ts-expect-error ratings are numbers
  void client.feedback.submit({ skill_id: 'pdf-tools', rating: 'five' });
  // @ts-expect-error roles are owner, admin or publisher
  void client.orgs.invite('acme', { username: 'bob', role: 'king' });
  // @ts-expect-error an organisation needs its handle
  void client.orgs.create({ display_name: 'Acme' });
  return [stars, query];
}

it("the typed client exposes the schemas' types (checked by tsc)", () => {
  assert.equal(typeof wrongUses, 'function');
});
