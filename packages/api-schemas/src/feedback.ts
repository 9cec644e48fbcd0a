import { Type } from 'typebox';
import { COMMENT_MAX } from '@skill-registry/rules/limits';
import { PageQuery, Timestamp } from './common.js';

export const Feedback = Type.Object(
  {
    id: Type.String(),
    skill_id: Type.String(),
    version: Type.Union([Type.String(), Type.Null()]),
    rating: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()]),
    comment: Type.Union([Type.String(), Type.Null()]),
    author: Type.Union([Type.Object({ id: Type.String(), username: Type.String() }), Type.Null()]),
    created_at: Timestamp,
  },
  { $id: 'Feedback', title: 'Feedback' },
);
export const FeedbackRef = Type.Ref('Feedback');

export const FeedbackBody = Type.Object(
  {
    skill_id: Type.String({ minLength: 1, maxLength: 200, description: 'The skill id or its slug.' }),
    rating: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()])),
    comment: Type.Optional(
      Type.Union([Type.String({ maxLength: COMMENT_MAX * 4, description: `At most ${COMMENT_MAX} characters.` }), Type.Null()]),
    ),
    version: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const FeedbackQuery = Type.Object({
  version: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  rating: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
  ...PageQuery,
});

export const FeedbackList = Type.Object({
  items: Type.Array(FeedbackRef),
  page: Type.Integer(),
  page_size: Type.Integer(),
  total: Type.Integer(),
  summary: Type.Object({
    count: Type.Integer(),
    average_rating: Type.Union([Type.Number(), Type.Null()], {
      description: 'Mean of the ratings given, to two decimals; null without ratings.',
    }),
  }),
});
