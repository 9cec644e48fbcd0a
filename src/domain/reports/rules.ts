import { REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason } from '@skill-registry/rules/limits';
import { validationFailed } from '../errors.js';

export { REPORT_REASONS };
export type { ReportReason };

/** A report's details as stored: trimmed, null when empty; required for `other`, at most REPORT_DETAILS_MAX characters. */
export function checkDetails(reason: ReportReason, details: string | undefined): string | null {
  const trimmed = details?.trim() ?? '';
  if (reason === 'other' && trimmed === '') {
    throw validationFailed([{ field: 'details', message: 'say what is wrong: details are required with the reason "other"' }]);
  }
  if ([...trimmed].length > REPORT_DETAILS_MAX) {
    throw validationFailed([{ field: 'details', message: `must be at most ${REPORT_DETAILS_MAX} characters` }]);
  }
  return trimmed === '' ? null : trimmed;
}
