import { REPORT_DETAILS_MAX } from '@skill-registry/rules/limits';
import type { ReportReason, ReportResolution } from '../api/types';

export { REPORT_DETAILS_MAX };

/** Every reason the registry takes, in the order the report form offers them, with words for people. */
export const REASON_LABEL: Record<ReportReason, string> = {
  malware: 'Malware',
  security: 'Security problem',
  spam: 'Spam',
  impersonation: 'Impersonation',
  inappropriate: 'Inappropriate content',
  copyright: 'Copyright',
  broken: 'Broken: does not work as described',
  other: 'Something else',
};

export const REASONS = Object.keys(REASON_LABEL) as ReportReason[];

export const RESOLUTION_LABEL: Record<ReportResolution, string> = {
  dismissed: 'Dismissed',
  actioned: 'Actioned',
};

/** What the registry checks of `details` before it answers, said as the person types. */
export function detailsProblem(reason: ReportReason, details: string): string | null {
  const trimmed = details.trim();
  if (reason === 'other' && trimmed === '') return 'Say what is wrong: details are required with “Something else”.';
  if ([...trimmed].length > REPORT_DETAILS_MAX) return `At most ${REPORT_DETAILS_MAX} characters.`;
  return null;
}
