import { v7 as uuidv7 } from 'uuid';

/** Time-ordered identifiers keep primary-key indexes append-mostly and make `id` a stable tie-break. */
export function newId(): string {
  return uuidv7();
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function looksLikeId(value: string): boolean {
  return UUID_SHAPE.test(value);
}
