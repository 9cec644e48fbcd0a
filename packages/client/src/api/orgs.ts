import { segment, type Transport } from '../transport.js';
import type {
  CreateOrgBody,
  Invitation,
  InvitationList,
  InviteBody,
  ListSkillsQuery,
  Member,
  MemberList,
  Organisation,
  OrgHistory,
  SetRoleBody,
  SkillList,
  UpdateOrgBody,
} from '../types.js';

/**
 * `/v1/orgs`: organisations, their members and invitations. Skills in an organisation's scope are named
 * `@handle/slug` and managed through `client.skills` and `client.versions` like any other skill.
 */
export class OrgsApi {
  constructor(private readonly transport: Transport) {}

  /** `POST /v1/orgs`: creates an organisation whose first owner is the caller. */
  create(body: CreateOrgBody): Promise<Organisation> {
    return this.transport.json('POST', '/v1/orgs', { json: body });
  }

  /** `GET /v1/orgs/:handle`: public; `role` is the caller's, or null. */
  get(handle: string): Promise<Organisation> {
    return this.transport.json('GET', `/v1/orgs/${segment(handle)}`);
  }

  /** `PATCH /v1/orgs/:handle`: owners and admins change the display name. */
  update(handle: string, body: UpdateOrgBody): Promise<Organisation> {
    return this.transport.json('PATCH', `/v1/orgs/${segment(handle)}`, { json: body });
  }

  /** `DELETE /v1/orgs/:handle`: owners only, and only an organisation that owns no skills (409 `org_owns_skills`). */
  delete(handle: string): Promise<void> {
    return this.transport.empty('DELETE', `/v1/orgs/${segment(handle)}`);
  }

  /** `GET /v1/orgs/:handle/skills`: its published skills; to its members every state and its private skills. */
  skills(handle: string, query: ListSkillsQuery = {}): Promise<SkillList> {
    return this.transport.json('GET', `/v1/orgs/${segment(handle)}/skills`, { query });
  }

  /** `GET /v1/orgs/:handle/members`: for members, every member and role. */
  members(handle: string): Promise<MemberList> {
    return this.transport.json('GET', `/v1/orgs/${segment(handle)}/members`);
  }

  /** `PATCH /v1/orgs/:handle/members/:username`: changes a member's role; the last owner stays one (409 `last_owner`). */
  setRole(handle: string, username: string, body: SetRoleBody): Promise<Member> {
    return this.transport.json('PATCH', `/v1/orgs/${segment(handle)}/members/${segment(username)}`, { json: body });
  }

  /** `DELETE /v1/orgs/:handle/members/:username`: removes a member, or with the caller's own username, leaves. */
  removeMember(handle: string, username: string): Promise<void> {
    return this.transport.empty('DELETE', `/v1/orgs/${segment(handle)}/members/${segment(username)}`);
  }

  /** `POST /v1/orgs/:handle/invitations`: invites a user with a role; it expires after the registry's ORG_INVITATION_DAYS. */
  invite(handle: string, body: InviteBody): Promise<Invitation> {
    return this.transport.json('POST', `/v1/orgs/${segment(handle)}/invitations`, { json: body });
  }

  /** `GET /v1/orgs/:handle/invitations`: owners and admins, the open invitations, newest first. */
  invitations(handle: string): Promise<InvitationList> {
    return this.transport.json('GET', `/v1/orgs/${segment(handle)}/invitations`);
  }

  /** `DELETE /v1/orgs/:handle/invitations/:invitationId`: withdraws an open invitation. */
  withdrawInvitation(handle: string, invitationId: string): Promise<void> {
    return this.transport.empty('DELETE', `/v1/orgs/${segment(handle)}/invitations/${segment(invitationId)}`);
  }

  /** `GET /v1/orgs/:handle/history`: for members, the latest changes of members, roles and invitations, newest first. */
  history(handle: string): Promise<OrgHistory> {
    return this.transport.json('GET', `/v1/orgs/${segment(handle)}/history`);
  }
}
