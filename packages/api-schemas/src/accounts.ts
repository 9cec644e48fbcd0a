import { Type } from 'typebox';
import { SCOPES } from '@skill-registry/rules/limits';
import { NullableTimestamp, Timestamp } from './common.js';

export const Role = Type.Union([Type.Literal('user'), Type.Literal('admin')]);
export const ScopeName = Type.Enum(SCOPES);

export const User = Type.Object(
  {
    id: Type.String(),
    username: Type.String(),
    email: Type.String(),
    role: Role,
    disabled: Type.Boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'User', title: 'User' },
);
export const UserRef = Type.Ref('User');

export const RegisterBody = Type.Object(
  {
    username: Type.String({ description: '2 to 39 characters: a-z, 0-9, "_" and "-", starting with a letter or digit.' }),
    email: Type.String({ maxLength: 320 }),
    password: Type.String({ description: 'At least 8 characters.' }),
  },
  { additionalProperties: false },
);

export const LoginBody = Type.Object(
  {
    login: Type.String({ minLength: 1, maxLength: 320, description: 'Username or email.' }),
    password: Type.String({ maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const LoginResult = Type.Object({
  user: UserRef,
  expires_at: Timestamp,
});

/** How a request authenticated: by session or API key, with the scopes it carries. */
const CallerAuth = Type.Object({
  kind: Type.Union([Type.Literal('session'), Type.Literal('api_key')]),
  scopes: Type.Array(ScopeName),
  api_key_id: Type.Union([Type.String(), Type.Null()]),
});

export const Me = Type.Object({
  user: UserRef,
  auth: CallerAuth,
});

export const CurrentSession = Type.Object(
  {
    user: Type.Union([UserRef, Type.Null()], { description: 'The signed-in user; null for a visitor.' }),
    auth: Type.Union([CallerAuth, Type.Null()], { description: 'How the request authenticated; null for a visitor.' }),
  },
  { description: 'Who is calling, if anyone: the answer of GET /v1/me, or nulls for a caller without credentials.' },
);

export const ApiKey = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String({ description: 'The first characters of the key, to recognise it; never the secret.' }),
    scopes: Type.Array(ScopeName),
    created_at: Timestamp,
    last_used_at: NullableTimestamp,
    expires_at: NullableTimestamp,
  },
  { $id: 'ApiKey', title: 'ApiKey' },
);

export const ApiKeyCreated = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  scopes: Type.Array(ScopeName),
  created_at: Timestamp,
  last_used_at: NullableTimestamp,
  expires_at: NullableTimestamp,
  key: Type.String({ description: 'The secret, shown only in this response. Send it as `Authorization: Bearer <key>`.' }),
});

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Array(ScopeName, { uniqueItems: true, maxItems: SCOPES.length, default: [] }),
    expires_in_days: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 3650 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const ApiKeyParams = Type.Object({ keyId: Type.String({ minLength: 1, maxLength: 100 }) });

export const AdminCreateUserBody = Type.Object(
  {
    username: Type.String(),
    email: Type.String({ maxLength: 320 }),
    password: Type.String(),
    role: Type.Optional(Role),
  },
  { additionalProperties: false },
);

export const AdminUpdateUserBody = Type.Object(
  {
    role: Type.Optional(Role),
    disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const UserParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 100 }) });
