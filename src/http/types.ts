import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import type { RouteServices } from './route-services.js';

export interface RouteDeps {
  services: RouteServices;
  config: Config;
}

/** A route module: a Fastify plugin typed by its TypeBox schemas, given the services it calls. */
export type RoutePlugin<Extra = object> = FastifyPluginAsyncTypebox<RouteDeps & Extra>;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The pattern of the route that matched (`/v1/skills/:skillId`), or null when none did. Set once by the app's
     * onRequest hook and read by every later stage (limits, metrics, call log, in-flight list).
     */
    routeUrl: string | null;
  }
}
