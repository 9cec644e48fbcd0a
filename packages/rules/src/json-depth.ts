import { jsonNestsDeeper } from '@skill-registry/skill-package/nesting-depth';
import { badRequest, type AppError } from './errors.js';
import { NESTING_MAX } from './limits.js';

/**
 * The refusal of JSON text nested deeper than NESTING_MAX, or null for text within it. Checked on the text, before it
 * is parsed: every JSON body (`field` is then `body`) and every form field holding JSON.
 */
export function jsonDepthProblem(text: string, field: string): AppError | null {
  if (!jsonNestsDeeper(text, NESTING_MAX)) return null;
  const what = field === 'body' ? 'The JSON body' : field;
  return badRequest(
    'json_too_deep',
    `${what} nests objects and arrays more than ${NESTING_MAX} levels deep; send a flatter document (a few levels are all any field needs).`,
    [{ field, message: `must nest at most ${NESTING_MAX} levels of objects and arrays` }],
  );
}
