import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { pageSecurityHeaders } from '../page-security.js';
import { declareAccessOfScope } from './route-access.js';
import { REQUIREMENTS, type Requirement } from '../../domain/actor.js';
import { security } from '../routes/security.js';
import { Problem } from '@skill-registry/api-schemas/common';
import { ApiKey, User } from '@skill-registry/api-schemas/accounts';
import { Organisation } from '@skill-registry/api-schemas/orgs';
import { Skill } from '@skill-registry/api-schemas/skills';
import { Version } from '@skill-registry/api-schemas/versions';
import { Feedback } from '@skill-registry/api-schemas/feedback';
import { Report } from '@skill-registry/api-schemas/reports';
import { CallLog } from '@skill-registry/api-schemas/logs';
import { ScanReport } from '@skill-registry/api-schemas/scans';

/**
 * The Swagger UI at /docs loads only its own scripts and styles from the registry and asks only the registry
 * (the API description, "Try it out"); its stylesheet draws icons from data: URLs.
 */
const DOCS_HEADERS = pageSecurityHeaders({ imageSources: "'self' data:" });

/**
 * Registers the shared schemas and the OpenAPI generator. It must run before any route is added:
 * the document is assembled from the very schemas the routes validate and serialise with.
 */
export async function installOpenApi(app: FastifyInstance, publicUrl: string, version: string): Promise<void> {
  for (const schema of [Problem, User, ApiKey, Organisation, Skill, Version, Feedback, Report, CallLog, ScanReport]) app.addSchema(schema);
  // A route's documented credentials follow from the access it declares, unless its schema names them itself.
  app.addHook('onRoute', (route) => {
    const auth: unknown = route.config?.auth;
    if (route.schema !== undefined && route.schema.security === undefined && REQUIREMENTS.includes(auth as Requirement)) {
      route.schema.security = security(auth as Requirement);
    }
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Skill Registry API',
        version,
        description:
          'A registry of installable AI-agent skill packages. Errors are RFC 9457 problem documents ' +
          '(`application/problem+json`) with a stable `code`. Every response carries `X-Request-Id`.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (`skreg_…`) from POST /v1/me/api-keys.' },
          session: { type: 'apiKey', in: 'cookie', name: 'session_token', description: 'The console session from POST /v1/auth/login.' },
        },
      },
      tags: [
        { name: 'skills', description: 'Listing, search, detail and metadata of skills' },
        { name: 'versions', description: 'Version packages: upload, download, files, statistics' },
        { name: 'scans', description: "The package scanner's reports, rescans and quarantine" },
        { name: 'feedback', description: 'Ratings and comments on skills' },
        { name: 'reports', description: "Users' reports of skills, and the administrators' queue of them" },
        { name: 'logs', description: "The caller's own call log" },
        { name: 'auth', description: 'Accounts and sessions' },
        { name: 'me', description: 'The caller: profile, own skills, API keys' },
        { name: 'admin', description: 'Moderation and user administration (admin session only)' },
        { name: 'operations', description: 'Health, readiness, metrics and this document' },
        { name: 'changes', description: 'The change feed: every change of what the caller may see, from a cursor' },
        { name: 'webhooks', description: "Signed deliveries of the change feed's entries to subscribed URLs" },
        { name: 'clawhub', description: 'The ClawHub protocol the `clawhub` command line speaks (/api/v1, /api/cli)' },
      ],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string | undefined) ?? `schema-${i}` },
  });
  // In a scope of its own, so the headers cost only the documentation's requests.
  await app.register(async (docs) => {
    // The documentation needs no caller. @fastify/swagger-ui takes no route config, so this scope, which holds only
    // its routes, declares their access.
    declareAccessOfScope(docs, 'none');
    docs.addHook('onRequest', (_request, reply, done) => {
      reply.headers(DOCS_HEADERS);
      done();
    });
    // No validator badge: it would fetch from validator.swagger.io, which the policy does not allow.
    await docs.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/v1/openapi.json', deepLinking: true, validatorUrl: null } });
  });
}
