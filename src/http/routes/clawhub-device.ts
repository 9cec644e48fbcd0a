import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { problems } from '@skill-registry/api-schemas/common';
import {
  ClawhubDeviceCode,
  ClawhubDeviceCodeBody,
  ClawhubDeviceError,
  ClawhubDeviceToken,
  ClawhubDeviceTokenBody,
  DeviceDecision,
  DeviceDecisionBody,
} from '@skill-registry/api-schemas/clawhub';
import { caller } from '../plugins/auth.js';
import type { RoutePlugin } from '../types.js';
import { speakClawhub } from './clawhub.js';

/**
 * `clawhub login` without a token: the device authorization flow (RFC 8628) at the origin root, where the client
 * looks for it, and the console's approval of a code (the /device page), which gives the waiting command a new API
 * key of the signed-in user.
 */
export const clawhubDeviceRoutes: RoutePlugin = async (app, { services }) => {
  const { devices } = services.clawhub;

  await app.register(async (scope) => {
    const cli = scope.withTypeProvider<TypeBoxTypeProvider>();
    speakClawhub(cli);
    cli.post(
      '/api/cli/device/code',
      {
        config: { auth: 'public' },
        schema: {
          tags: ['clawhub'],
          summary: 'ClawHub: start a device login',
          description:
            "A device code to poll with and a user code to approve at `verification_uri` (the console's /device page), good for 10 minutes.",
          body: ClawhubDeviceCodeBody,
          response: { 200: ClawhubDeviceCode, ...problems(400) },
        },
      },
      async (request) => devices.start(request.body.label),
    );

    cli.post(
      '/api/cli/device/token',
      {
        config: { auth: 'public' },
        schema: {
          tags: ['clawhub'],
          summary: 'ClawHub: poll a device login',
          description:
            'Once the code is approved, a new API key (scope `skill:upload`) of the approving user, handed out once. Until then ' +
            '400 `authorization_pending` (`slow_down` when polled faster than every other interval); `expired_token` after ' +
            '10 minutes or once the key was handed out; `access_denied` when the user refused.',
          body: ClawhubDeviceTokenBody,
          response: { 200: ClawhubDeviceToken, 400: ClawhubDeviceError },
        },
      },
      async (request, reply) => {
        const answer = await devices.poll(request.body.device_code);
        if (answer.ok)
          return reply
            .header('cache-control', 'no-store')
            .send({ access_token: answer.access_token, token_type: answer.token_type, scope: answer.scope });
        return reply
          .code(400)
          .header('cache-control', 'no-store')
          .send({ error: answer.error, ...(answer.interval === undefined ? {} : { interval: answer.interval }) });
      },
    );
  });

  app.post(
    '/v1/device/decision',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['clawhub'],
        summary: 'Approve or refuse a device login',
        description:
          "The console's answer to a code `clawhub login` printed, for the signed-in user: approving makes an API key of theirs " +
          '(scope `skill:upload`, named after the login) that the waiting command receives; it is revoked like any other key. ' +
          '404 `user_code_not_found` for a code that is mistyped, expired or already answered.',
        body: DeviceDecisionBody,
        response: { 200: DeviceDecision, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => devices.decide(caller(request), request.body.user_code, request.body.approve),
  );
};
