/**
 * True when an error is a unique-constraint violation, on either database; with `column`, only when the driver's
 * report (message, constraint name, detail) names that column. Repositories turn such errors into outcomes of
 * their own, so no caller above the data layer reads a driver's error codes.
 */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: string; message?: string; constraint?: string; detail?: string };
  const unique = e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  if (!unique || column === undefined) return unique;
  const text = `${e.message ?? ''} ${e.constraint ?? ''} ${e.detail ?? ''}`;
  return text.includes(column);
}
