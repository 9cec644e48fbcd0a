import { Type } from 'typebox';

export const OrgRole = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('publisher')], {
  description:
    'owner: everything, including owners and deleting the organisation; admin: members other than owners, and every skill; publisher: create skills in the scope, upload versions, edit metadata.',
});

export const Organisation = Type.Object(
  {
    id: Type.String(),
    handle: Type.String({
      description: "The organisation's handle: skills in its scope are named `@handle/slug`. Users and organisations share one namespace.",
    }),
    display_name: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    role: Type.Union([OrgRole, Type.Null()], { description: "The caller's role, or null when the caller is not a member." }),
  },
  { $id: 'Organisation', title: 'Organisation' },
);

const Handle = Type.String({ minLength: 1, maxLength: 100, description: 'An organisation handle.' });

export const CreateOrgBody = Type.Object(
  {
    handle: Type.String({
      minLength: 1,
      maxLength: 100,
      description: '2 to 39 of a-z, 0-9, "_" and "-", starting with a letter or digit.',
    }),
    display_name: Type.Optional(Type.String({ maxLength: 1000, description: 'Shown beside the handle; the handle when absent.' })),
  },
  { additionalProperties: false },
);

export const UpdateOrgBody = Type.Object(
  { display_name: Type.Optional(Type.String({ maxLength: 1000 })) },
  { additionalProperties: false },
);

export const OrgParams = Type.Object({ handle: Handle });
export const MemberParams = Type.Object({ handle: Handle, username: Type.String({ minLength: 1, maxLength: 100 }) });
export const OrgInvitationParams = Type.Object({ handle: Handle, invitationId: Type.String({ minLength: 1, maxLength: 100 }) });
export const InvitationParams = Type.Object({ invitationId: Type.String({ minLength: 1, maxLength: 100 }) });

export const Member = Type.Object({
  username: Type.String(),
  role: OrgRole,
  since: Type.String({ format: 'date-time' }),
});

export const Invitation = Type.Object({
  id: Type.String(),
  organisation: Type.String({ description: "The organisation's handle." }),
  username: Type.String({ description: 'Who is invited.' }),
  role: OrgRole,
  invited_by: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({
    format: 'date-time',
    description: 'After this the invitation can no longer be accepted (ORG_INVITATION_DAYS).',
  }),
});

export const InviteBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 100, description: 'The handle of the user to invite.' }),
    role: OrgRole,
  },
  { additionalProperties: false },
);

export const SetRoleBody = Type.Object({ role: OrgRole }, { additionalProperties: false });

export const OrgHistoryEntry = Type.Object({
  action: Type.String({
    description:
      'org.create, org.invite, org.invitation.accept, org.invitation.decline, org.invitation.withdraw, org.role, org.remove, org.leave.',
  }),
  actor: Type.Union([Type.String(), Type.Null()]),
  from: Type.Union([Type.String(), Type.Null()]),
  to: Type.Union([Type.String(), Type.Null()]),
  at: Type.String({ format: 'date-time' }),
});

export const Transfer = Type.Object({
  id: Type.String(),
  skill: Type.String({ description: "The skill's whole name when offered." }),
  to: Type.String({ description: 'The handle of the user or organisation it is offered to.' }),
  new_name: Type.String({ description: 'The whole name the skill takes on arrival.' }),
  offered_by: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
});

export const OfferTransferBody = Type.Object(
  {
    to: Type.String({ minLength: 1, maxLength: 100, description: 'A username or an organisation handle (with or without `@`).' }),
    slug: Type.Optional(Type.String({ maxLength: 100, description: 'A new slug on arrival; the skill keeps its own when absent.' })),
  },
  { additionalProperties: false },
);

export const RenameBody = Type.Object(
  { slug: Type.String({ minLength: 1, maxLength: 100, description: 'The new slug, in the same scope.' }) },
  { additionalProperties: false },
);

export const TransferParams = Type.Object({ transferId: Type.String({ minLength: 1, maxLength: 100 }) });
export const AliasParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });

export const SkillAlias = Type.Object({
  name: Type.String({ description: 'A name the skill had; it still leads to the skill.' }),
  until: Type.String({ format: 'date-time', description: 'When the skill stopped being named so.' }),
});
