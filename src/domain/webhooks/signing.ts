import { createHmac, randomBytes } from 'node:crypto';

/** The headers of a delivery (docs/api-decisions.md, "Webhooks"). */
export const HEADERS = {
  delivery: 'skill-registry-delivery',
  event: 'skill-registry-event',
  timestamp: 'skill-registry-timestamp',
  signature: 'skill-registry-signature',
} as const;

/** A new signing secret: 32 random bytes, shown once when the subscription is made. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * `sha256=` and the hex HMAC-SHA256, keyed by the secret (the whole string, `whsec_` included, as UTF-8), of
 * `<timestamp>.<raw body>`, where the timestamp is the `Skill-Registry-Timestamp` header (Unix seconds). Signing the
 * time with the body lets a receiver refuse a delivery replayed later.
 */
export function sign(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
