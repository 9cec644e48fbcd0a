import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { installConsole } from '../../src/http/routes/console.js';
import { installOpenApi } from '../../src/http/plugins/openapi.js';
import { ACCESS_LEVELS, isAccess, requireDeclaredAccess } from '../../src/http/plugins/route-access.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { apiBackends } from '../helpers/backends.js';
import { ifSet } from '../helpers/hooks.js';

interface SeenRoute {
  method: string;
  url: string;
  options: RouteOptions;
}

const describeRoute = (route: SeenRoute) => `${route.method} ${route.url}`;

/**
 * Records every route added to every Fastify instance created while `build` runs, from the instance's first moment
 * (Fastify announces each new instance on the `fastify.initialization` channel before any plugin or route is
 * added): the app's own routes, those plugins add, and the HEAD routes Fastify adds for GETs. The options objects
 * are kept, so their `config` is read once the app is ready, after every onRoute hook has had its say.
 */
async function recordingRoutes<T>(build: () => Promise<T>): Promise<{ built: T; routes: SeenRoute[] }> {
  const routes: SeenRoute[] = [];
  const onInstance = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (options) => {
      for (const method of [options.method].flat()) routes.push({ method, url: options.url, options });
    });
  };
  diagnostics.subscribe('fastify.initialization', onInstance);
  try {
    return { built: await build(), routes };
  } finally {
    diagnostics.unsubscribe('fastify.initialization', onInstance);
  }
}

function undeclared(routes: readonly SeenRoute[]): string[] {
  return routes.filter((route) => !isAccess(route.options.config?.auth)).map(describeRoute);
}

for (const backend of apiBackends()) {
  describe(`every route of the app declares its access (${backend.name})`, () => {
    let t: TestApp;
    let routes: SeenRoute[];

    before(async () => {
      ({ built: t, routes } = await recordingRoutes(() => startApp(backend)));
      await t.app.ready();
    });
    after(() => ifSet(t)?.close());

    it('declares a valid config.auth on every registered route, HEAD routes and plugin routes included', () => {
      assert.ok(routes.length > 40, `only ${routes.length} routes were seen`);
      for (const route of routes)
        assert.ok(t.app.hasRoute({ method: route.method, url: route.url }), `${describeRoute(route)} is not in the router`);
      // And the other way round: the router holds no route that was added without passing the onRoute hooks.
      // The tree as stored (commonPrefix): the flattened form prints two wildcard routes below parameters as one line.
      const inRouter = [...t.app.printRoutes({ commonPrefix: true }).matchAll(/\(([A-Z]+(?:, [A-Z]+)*)\)$/gm)].reduce(
        (count, match) => count + match[1]!.split(', ').length,
        0,
      );
      assert.equal(inRouter, new Set(routes.map(describeRoute)).size);
      assert.deepEqual(undeclared(routes), []);
      const seen = new Set(routes.map(describeRoute));
      for (const expected of [
        'GET /docs',
        'HEAD /docs',
        'GET /docs/json',
        'HEAD /v1/skills',
        'GET /v1/openapi.json',
        'GET /v1/admin/users',
      ]) {
        assert.ok(seen.has(expected), `${expected} was not seen among the routes`);
      }
    });

    it('gives the documentation no credential handling and keeps the admin routes for admin sessions', () => {
      const access = new Map(routes.map((route) => [describeRoute(route), route.options.config?.auth]));
      for (const docs of ['GET /docs', 'HEAD /docs', 'GET /docs/json', 'GET /docs/static/*']) assert.equal(access.get(docs), 'none', docs);
      for (const [route, auth] of access) if (route.includes(' /v1/admin/')) assert.equal(auth, 'admin', route);
      assert.equal(access.get('HEAD /v1/skills'), access.get('GET /v1/skills'));
    });

    it('answers a request no route matches as a public one: a wrong key is still refused', async () => {
      const response = await t.request({ method: 'GET', url: '/v1/nothing-here', headers: { authorization: 'Bearer skreg_wrong' } });
      assert.equal(response.statusCode, 401);
      assert.equal((await t.request({ method: 'GET', url: '/v1/nothing-here' })).statusCode, 404);
    });
  });
}

describe('an app with a route that declares no access', () => {
  it('refuses to start, naming the method and URL of each such route', async () => {
    const app = Fastify();
    requireDeclaredAccess(app);
    app.get('/declared', { config: { auth: 'public' } }, () => 'ok');
    app.get('/forgotten', () => 'open');
    app.post('/misspelt', { config: { auth: 'amdin' as 'admin' } }, () => 'open');
    await assert.rejects(
      async () => app.ready(),
      (error: Error) => {
        assert.match(error.message, /config\.auth/);
        assert.match(error.message, /GET \/forgotten/);
        // The HEAD route Fastify adds for a GET shares its options, so it is named too.
        assert.match(error.message, /HEAD \/forgotten/);
        assert.match(error.message, /POST \/misspelt/);
        assert.doesNotMatch(error.message, /\/declared/);
        for (const level of ACCESS_LEVELS) assert.ok(error.message.includes(level));
        return true;
      },
    );
    await app.close();
  });

  it('refuses to start when a plugin adds a route without one', async () => {
    const app = Fastify();
    requireDeclaredAccess(app);
    await app.register((scope, _options, done) => {
      scope.route({ method: 'GET', url: '/from-a-plugin', handler: () => 'open' });
      done();
    });
    await assert.rejects(async () => app.ready(), /GET \/from-a-plugin/);
    await app.close();
  });
});

describe('routes added by plugins without a route config option', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'skreg-console-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<html><head></head><body></body></html>');
    writeFileSync(path.join(dir, 'assets', 'app-1234.js'), 'console.log(1);');
    writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("declares 'none' on exactly the console's files and the documentation, and on nothing else", async () => {
    const { built: app, routes } = await recordingRoutes(async () => {
      const app = Fastify();
      requireDeclaredAccess(app);
      await installOpenApi(app, 'http://127.0.0.1:3000', '0.0.0');
      await installConsole(app, loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), { dir });
      // Registered after the plugins, at the top level: their declarations must not reach it.
      app.get('/after-the-plugins', () => 'open');
      return app;
    });
    await assert.rejects(
      async () => app.ready(),
      (error: Error) => {
        assert.match(error.message, /GET \/after-the-plugins/);
        assert.doesNotMatch(error.message, /\/docs|\/assets|favicon/);
        return true;
      },
    );
    const access = new Map(routes.map((route) => [describeRoute(route), route.options.config?.auth]));
    for (const file of [
      'GET /assets/app-1234.js',
      'HEAD /assets/app-1234.js',
      'GET /favicon.svg',
      'HEAD /favicon.svg',
      'GET /docs',
      'HEAD /docs',
    ]) {
      assert.equal(access.get(file), 'none', file);
    }
    assert.equal(access.get('GET /after-the-plugins'), undefined);
    await app.close();
  });
});
