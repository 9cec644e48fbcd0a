/** The current instant as the ISO 8601 UTC string every timestamp column is written with. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** Normalises a timestamp read from either database to an ISO 8601 UTC string. */
export function toIso(value: Date | string): string;
export function toIso(value: Date | string | null): string | null;
export function toIso(value: Date | string | null): string | null {
  if (value === null) return null;
  if (value instanceof Date) return value.toISOString();
  // SQLite hands back what was written, which is already in the canonical form.
  return value;
}

export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(iso) + days * 86_400_000).toISOString();
}
