/**
 * The security headers of the pages the registry serves to browsers (the console, the API reference at /docs):
 * they run nothing but the registry's own scripts and styles, talk only to the registry, and may not be framed.
 */
export function pageSecurityHeaders(options: { imageSources: string }) {
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${options.imageSources}`,
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
  } as const;
}
