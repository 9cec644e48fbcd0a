import { Type } from 'typebox';
import { caller } from '../plugins/auth.js';
import { ItemList as items, problems, SkillRefParams } from '@skill-registry/api-schemas/common';
import { AliasParams, OfferTransferBody, RenameBody, SkillAlias, Transfer, TransferParams } from '@skill-registry/api-schemas/orgs';
import type { RoutePlugin } from '../types.js';

const SkillRef = Type.Ref('Skill');

/**
 * Moving skills between owners and renaming them. The old name keeps leading to the skill: a request naming it is
 * answered 308 with the new place (plugins/errors.ts), until an administrator releases the name.
 */
export const transferRoutes: RoutePlugin = async (app, { services }) => {
  const transfers = services.transfers;

  app.post(
    '/v1/skills/:skillId/transfer',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['skills'],
        summary: 'Offer a skill to another owner',
        description:
          'Its user, or an owner or admin of its organisation, offers the skill to a user or an organisation, optionally with a new slug. ' +
          "The receiver accepts (POST /v1/transfers/{id}/accept) before ORG_INVITATION_DAYS pass. A scoped skill takes the receiver's " +
          'scope; an unscoped one stays unscoped. Offering again replaces the open offer.',
        params: SkillRefParams,
        body: OfferTransferBody,
        response: { 201: Transfer, ...problems(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await transfers.offer(caller(request), request.params.skillId, request.body)),
  );

  app.get(
    '/v1/skills/:skillId/transfer',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['skills'],
        summary: "A skill's open transfer offer",
        params: SkillRefParams,
        response: { 200: items(Transfer), ...problems(401, 403, 404) },
      },
    },
    async (request) => ({ items: await transfers.ofSkill(request.actor, request.params.skillId) }),
  );

  app.post(
    '/v1/skills/:skillId/rename',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['skills'],
        summary: 'Rename a skill',
        description:
          'A new slug in the same scope, keeping the id, versions, statistics and feedback. The old name keeps leading to the skill ' +
          '(308 to the new name) until an administrator releases it.',
        params: SkillRefParams,
        body: RenameBody,
        response: { 200: SkillRef, ...problems(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => transfers.rename(caller(request), request.params.skillId, request.body),
  );

  app.get(
    '/v1/skills/:skillId/aliases',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['skills'],
        summary: "A skill's earlier names",
        description: 'The names the skill had before it moved or was renamed, newest first; each still leads to it.',
        params: SkillRefParams,
        response: { 200: items(SkillAlias), ...problems(401, 404) },
      },
    },
    async (request) => ({ items: await transfers.aliases(request.actor, request.params.skillId) }),
  );

  app.get(
    '/v1/me/transfers',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['me'],
        summary: 'Transfer offers to me',
        description: 'Open offers of skills to the caller, or to organisations the caller owns or administers.',
        response: { 200: items(Transfer), ...problems(401) },
      },
    },
    async (request) => ({ items: await transfers.received(caller(request)) }),
  );

  app.post(
    '/v1/transfers/:transferId/accept',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['skills'],
        summary: 'Accept a transfer offer',
        description: 'The receiving user, or an owner or admin of the receiving organisation. The skill moves at once.',
        params: TransferParams,
        response: { 204: Type.Null(), ...problems(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await transfers.accept(caller(request), request.params.transferId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/transfers/:transferId/decline',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['skills'],
        summary: 'Decline a transfer offer',
        params: TransferParams,
        response: { 204: Type.Null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await transfers.decline(caller(request), request.params.transferId);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/v1/transfers/:transferId',
    {
      config: { auth: 'uploader' },
      schema: {
        tags: ['skills'],
        summary: 'Withdraw a transfer offer',
        description: 'Whoever may offer the skill.',
        params: TransferParams,
        response: { 204: Type.Null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await transfers.withdraw(caller(request), request.params.transferId);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/v1/admin/skill-aliases/:name',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: "Release a skill's old name",
        description: 'The name stops leading to the skill that had it, and may be taken by a new skill. Recorded in the audit trail.',
        params: AliasParams,
        response: { 204: Type.Null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await transfers.release(request.actor, request.params.name);
      return reply.code(204).send(null);
    },
  );
};
