/** The stages of a skill's life cycle; transitions.ts says which may follow which. */
export const SKILL_STATUSES = ['draft', 'published', 'deprecated'] as const;
export type SkillStatus = (typeof SKILL_STATUSES)[number];
