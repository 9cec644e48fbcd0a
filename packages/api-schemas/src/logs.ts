import { Type } from 'typebox';
import { PageQuery, Timestamp } from './common.js';

export const CallLog = Type.Object(
  {
    request_id: Type.String(),
    user_id: Type.String(),
    method: Type.String(),
    path: Type.String({ description: 'The path as requested, with its query string.' }),
    route: Type.Union([Type.String(), Type.Null()], { description: 'The route pattern, e.g. /v1/skills/:skillId.' }),
    status_code: Type.Integer(),
    duration_ms: Type.Number(),
    ip: Type.Union([Type.String(), Type.Null()]),
    user_agent: Type.Union([Type.String(), Type.Null()]),
    auth: Type.Union([Type.Literal('session'), Type.Literal('api_key')]),
    api_key_id: Type.Union([Type.String(), Type.Null()]),
    created_at: Timestamp,
  },
  { $id: 'CallLog', title: 'CallLog' },
);
export const CallLogRef = Type.Ref('CallLog');

export const LogsQuery = Type.Object({
  from: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601; calls at or after this instant.' })),
  to: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601; calls before this instant.' })),
  status_code: Type.Optional(Type.String({ maxLength: 3, description: 'A status (404) or a class (4xx).' })),
  method: Type.Optional(Type.String({ maxLength: 10 })),
  user_id: Type.Optional(Type.String({ maxLength: 100, description: "An admin session only: another user's calls." })),
  ...PageQuery,
});

export const LogParams = Type.Object({ requestId: Type.String({ minLength: 1, maxLength: 100 }) });
