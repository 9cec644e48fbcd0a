import { Type } from 'typebox';
import { ALLOWANCE_REASON_MAX } from '@skill-registry/rules/names/allowances';
import { Nullable, Timestamp } from './common.js';

export const NameAllowanceBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'The skill slug or handle to allow, as it will be created (lower-case letters, digits, "-" and "_").',
    }),
    reason: Type.String({
      maxLength: ALLOWANCE_REASON_MAX * 4,
      description: `Why the name is allowed, in at most ${ALLOWANCE_REASON_MAX} characters; required and not blank. Kept with the allowance and in the audit trail.`,
    }),
  },
  { additionalProperties: false },
);

export const NameAllowance = Type.Object(
  {
    name: Type.String(),
    reason: Type.String(),
    granted_by: Nullable(Type.String({ description: 'The administrator who allowed it (null once that account is gone).' })),
    created_at: Timestamp,
  },
  { title: 'NameAllowance' },
);

export const NameAllowanceParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });
