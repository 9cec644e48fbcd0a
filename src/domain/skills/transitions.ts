import type { SkillStatus } from './statuses.js';
import { conflict } from '../errors.js';

/** The skill life cycle's state machine, exactly: anything not listed here is refused. */
const ALLOWED: Record<SkillStatus, readonly SkillStatus[]> = {
  draft: ['published'],
  published: ['deprecated'],
  deprecated: ['published'],
};

export function allowedTargets(from: SkillStatus): readonly SkillStatus[] {
  return ALLOWED[from];
}

export function checkTransition(from: SkillStatus, to: SkillStatus): void {
  const targets = ALLOWED[from];
  if (!targets.includes(to)) {
    throw conflict('invalid_transition', `A ${from} skill cannot become ${to}; allowed from ${from}: ${targets.join(', ')}.`);
  }
}
