/**
 * Facts about this registry that the server writes into the console's index.html as <meta> tags
 * (src/http/routes/console.ts), so the console knows them before any request.
 */
function meta(name: string): string | null {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? null;
}

const DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export const registryInfo = {
  maxUploadBytes: Number(meta('skreg:max-upload-bytes') ?? DEFAULT_MAX_UPLOAD_BYTES) || DEFAULT_MAX_UPLOAD_BYTES,
  registrationOpen: meta('skreg:registration') !== 'closed',
  version: meta('skreg:version') ?? '',
};
