import { Type } from 'typebox';
import { caller } from '../plugins/auth.js';
import { ItemList as items, problems } from '@skill-registry/api-schemas/common';
import {
  CreateOrgBody,
  Invitation,
  InvitationParams,
  InviteBody,
  Member,
  MemberParams,
  OrgHistoryEntry,
  OrgInvitationParams,
  OrgParams,
  SetRoleBody,
  UpdateOrgBody,
} from '@skill-registry/api-schemas/orgs';
import { ListSkillsQuery, SkillList } from '@skill-registry/api-schemas/skills';
import type { RoutePlugin } from '../types.js';
import { listQuery } from './skill-query.js';

const OrganisationRef = Type.Ref('Organisation');

/**
 * Organisations, their members and invitations. Reading an organisation is public; its members, invitations and
 * history are for members; changes need a session or an API key with `skill:upload`, and the role the change asks.
 */
export const orgRoutes: RoutePlugin = async (app, { services }) => {
  const orgs = services.orgs;

  app.post(
    '/v1/orgs',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['orgs'],
        summary: 'Create an organisation',
        description:
          'The caller becomes its first owner. The handle shares one namespace with usernames: a taken one is 409 `handle_taken`, ' +
          'one confusable with a name someone else holds 409 `name_too_similar`, a reserved word 409 `name_reserved`.',
        body: CreateOrgBody,
        response: { 201: OrganisationRef, ...problems(400, 401, 403, 409, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await orgs.create(caller(request), request.body)),
  );

  app.get(
    '/v1/orgs/:handle',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['orgs'],
        summary: 'An organisation',
        description: "Public: handle, display name, and the caller's role (null when not a member).",
        params: OrgParams,
        response: { 200: OrganisationRef, ...problems(401, 404) },
      },
    },
    async (request) => orgs.get(request.actor, request.params.handle),
  );

  app.patch(
    '/v1/orgs/:handle',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['orgs'],
        summary: 'Change an organisation',
        description: 'Owners and admins: the display name.',
        params: OrgParams,
        body: UpdateOrgBody,
        response: { 200: OrganisationRef, ...problems(400, 401, 403, 404, 415) },
      },
    },
    async (request) => orgs.update(caller(request), request.params.handle, request.body),
  );

  app.delete(
    '/v1/orgs/:handle',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['orgs'],
        summary: 'Delete an organisation',
        description: 'Owners only; an organisation that owns skills is 409 `org_owns_skills`.',
        params: OrgParams,
        response: { 204: Type.Null(), ...problems(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await orgs.remove(caller(request), request.params.handle);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/orgs/:handle/skills',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['orgs'],
        summary: "An organisation's skills",
        description:
          'Its published skills; to its members (and an administrator) every state and its private skills, which `status` narrows. ' +
          'Same search, filters and sorts as GET /v1/skills.',
        params: OrgParams,
        querystring: ListSkillsQuery,
        response: { 200: SkillList, ...problems(400, 401, 404) },
      },
    },
    async (request) => {
      const org = await orgs.get(request.actor, request.params.handle);
      const query = listQuery(request.query, true);
      const { items, total, match } = await services.skills.listOrg(request.actor, org.id, query);
      return { items, total, match, page: query.page, page_size: query.pageSize };
    },
  );

  app.get(
    '/v1/orgs/:handle/members',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['orgs'],
        summary: 'Members',
        description: 'For members (and an administrator): every member and role, by username.',
        params: OrgParams,
        response: { 200: items(Member), ...problems(401, 403, 404) },
      },
    },
    async (request) => ({ items: await orgs.members(request.actor, request.params.handle) }),
  );

  app.patch(
    '/v1/orgs/:handle/members/:username',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['orgs'],
        summary: "Change a member's role",
        description:
          'Owners change any role; admins change the roles of admins and publishers, and make no owners. The last owner keeps the role (409 `last_owner`).',
        params: MemberParams,
        body: SetRoleBody,
        response: { 200: Member, ...problems(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => orgs.setRole(caller(request), request.params.handle, request.params.username, request.body),
  );

  app.delete(
    '/v1/orgs/:handle/members/:username',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['orgs'],
        summary: 'Remove a member, or leave',
        description:
          'Owners remove anyone, admins anyone but owners; every member may remove themselves. The last owner stays (409 `last_owner`).',
        params: MemberParams,
        response: { 204: Type.Null(), ...problems(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await orgs.removeMember(caller(request), request.params.handle, request.params.username);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/orgs/:handle/invitations',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['orgs'],
        summary: 'Invite a user',
        description:
          'Owners invite with any role, admins as admin or publisher. The invitee accepts or declines (POST /v1/me/invitations/…); ' +
          'the invitation expires after ORG_INVITATION_DAYS. Inviting again replaces an open invitation; a member is 409 `already_member`.',
        params: OrgParams,
        body: InviteBody,
        response: { 201: Invitation, ...problems(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await orgs.invite(caller(request), request.params.handle, request.body)),
  );

  app.get(
    '/v1/orgs/:handle/invitations',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['orgs'],
        summary: 'Open invitations',
        description: 'Owners and admins: the invitations not yet answered nor expired, newest first.',
        params: OrgParams,
        response: { 200: items(Invitation), ...problems(401, 403, 404) },
      },
    },
    async (request) => ({ items: await orgs.invitations(caller(request), request.params.handle) }),
  );

  app.delete(
    '/v1/orgs/:handle/invitations/:invitationId',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['orgs'],
        summary: 'Withdraw an invitation',
        params: OrgInvitationParams,
        response: { 204: Type.Null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await orgs.withdraw(caller(request), request.params.handle, request.params.invitationId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/orgs/:handle/history',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['orgs'],
        summary: 'Membership history',
        description: 'For members: every change of members, roles and invitations, newest first (the latest 200).',
        params: OrgParams,
        response: { 200: items(OrgHistoryEntry), ...problems(401, 403, 404) },
      },
    },
    async (request) => ({ items: await orgs.history(request.actor, request.params.handle) }),
  );

  app.get(
    '/v1/me/orgs',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['me'],
        summary: 'My organisations',
        description: "The organisations the caller belongs to, each with the caller's role.",
        response: { 200: items(OrganisationRef), ...problems(401) },
      },
    },
    async (request) => ({ items: await orgs.mine(caller(request)) }),
  );

  app.get(
    '/v1/me/invitations',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['me'],
        summary: 'My invitations',
        description: "Invitations waiting for the caller's answer, newest first.",
        response: { 200: items(Invitation), ...problems(401) },
      },
    },
    async (request) => ({ items: await orgs.myInvitations(caller(request)) }),
  );

  app.post(
    '/v1/me/invitations/:invitationId/accept',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['me'],
        summary: 'Accept an invitation',
        description: 'The invitee only (403 `not_invitee` for anyone else); an answered, withdrawn or expired one is 404.',
        params: InvitationParams,
        response: { 200: OrganisationRef, ...problems(401, 403, 404) },
      },
    },
    async (request) => orgs.answer(caller(request), request.params.invitationId, true),
  );

  app.post(
    '/v1/me/invitations/:invitationId/decline',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['me'],
        summary: 'Decline an invitation',
        params: InvitationParams,
        response: { 204: Type.Null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await orgs.answer(caller(request), request.params.invitationId, false);
      return reply.code(204).send(null);
    },
  );
};
