import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { VERSION } from '../../version.js';
import { pageSecurityHeaders } from '../page-security.js';
import { declareAccessOfScope } from '../plugins/route-access.js';

/** Paths that belong to the API and to operations: never answered with the console, whatever they accept. */
const RESERVED_PREFIXES = ['/v1', '/docs', '/healthz', '/readyz', '/metrics'];

/**
 * Package content (SKILL.md, file previews) is rendered as text by the console, so a package cannot bring script,
 * style or remote images of its own: the console's pages load images from the registry only.
 */
const CONSOLE_SECURITY = pageSecurityHeaders({ imageSources: "'self'" });
export const CONSOLE_CSP = CONSOLE_SECURITY['content-security-policy'];

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  // The page names the hashed assets of the current build, so it is checked again on every visit.
  'cache-control': 'no-cache',
  ...CONSOLE_SECURITY,
} as const;

/** Vite names every file under assets/ by a hash of its content, so they never change and may be cached for good. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
const OTHER_CACHE = 'public, max-age=3600';

/**
 * Where `npm run build` writes the console: dist/console under the package root. The root is found by
 * walking up to package.json, so this holds whether the server runs from dist/ or from src/ under tsx.
 */
export function defaultConsoleDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'dist', 'console');
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('The package root (a folder with package.json) was not found above the console module.');
    dir = parent;
  }
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Facts the console needs before its first request, as <meta> tags (no inline script under the CSP). */
function withRegistryMeta(html: string, config: Config): string {
  const meta = {
    'skreg:max-upload-bytes': String(config.maxUploadBytes),
    'skreg:registration': config.registration,
    'skreg:version': VERSION,
  };
  const tags = Object.entries(meta)
    .map(([name, content]) => `    <meta name="${name}" content="${escapeAttribute(content)}" />`)
    .join('\n');
  return html.includes('</head>') ? html.replace('</head>', `${tags}\n  </head>`) : `${tags}\n${html}`;
}

const NOT_BUILT = (dir: string) =>
  'The web console has not been built, so there is nothing to show here yet.\n\n' +
  "Build it with `npm run build` (or run `npm start`, which builds before serving) in the registry's folder, then restart the server.\n" +
  `It is looked for in ${dir}.\n\n` +
  'The API works without it: see /docs and /v1/openapi.json.\n';

function isReserved(pathname: string): boolean {
  return RESERVED_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

function acceptsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && accept.includes('text/html');
}

export interface ConsoleOptions {
  /** The built console (index.html, assets/); defaults to dist/console under the package root. */
  dir?: string;
}

/**
 * Serves the web console at `/`: its hashed assets as static files (cached for good), and index.html
 * (never cached) for any other page a browser asks for, so that every console URL can be opened directly
 * or shared. The API keeps its paths: anything under /v1, /docs and the operations endpoints, and any
 * request that does not ask for HTML, goes on to its route or to the API's problem+json 404.
 *
 * Returns what answers the pages: the app's not-found handler asks it first, so a page is served only where no
 * route matched, after authentication and rate limiting have run (a page load counts against the reads limit
 * like any request, and is not recorded in the call log, which keeps /v1 calls only), and no other request pays
 * for it. It answers true when it has replied. Asset routes skip credential handling.
 */
export async function installConsole(
  app: FastifyInstance,
  config: Config,
  options: ConsoleOptions = {},
): Promise<(request: FastifyRequest, reply: FastifyReply) => boolean> {
  const dir = options.dir ?? defaultConsoleDir();
  const indexFile = path.join(dir, 'index.html');
  const page = existsSync(indexFile) ? withRegistryMeta(readFileSync(indexFile, 'utf8'), config) : null;

  if (page !== null) {
    await app.register(async (assets) => {
      // Static files need no caller: the session cookie a browser sends along is not even looked up. @fastify/static
      // takes no route config, so this scope, which holds only its routes, declares their access.
      declareAccessOfScope(assets, 'none');
      await assets.register(fastifyStatic, {
        root: dir,
        prefix: '/',
        // One route per built file, found at start-up; any other path falls through to the page or a 404.
        wildcard: false,
        index: false,
        redirect: false,
        decorateReply: false,
        globIgnore: ['index.html'],
        cacheControl: false,
        setHeaders: (reply: FastifyReply, filePath: string) => {
          const underAssets = path.relative(dir, filePath).split(path.sep)[0] === 'assets';
          reply.header('cache-control', underAssets ? ASSET_CACHE : OTHER_CACHE);
          reply.header('x-content-type-options', 'nosniff');
        },
      });
    });
  } else {
    app.log.warn({ dir }, 'the web console is not built; / answers 503 until `npm run build` has run');
  }

  return (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const pathname = request.url.split('?')[0] ?? '/';
    if (isReserved(pathname) || !acceptsHtml(request)) return false;
    if (page === null) {
      reply.code(503).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT(dir));
    } else {
      reply.code(200).headers(PAGE_HEADERS).send(page);
    }
    return true;
  };
}
