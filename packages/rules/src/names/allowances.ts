/** How long an administrator's reason for allowing a name may be, in characters. */
export const ALLOWANCE_REASON_MAX = 2000;
