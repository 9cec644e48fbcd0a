import type { FastifyInstance } from 'fastify';
import { jsonDepthProblem } from '@skill-registry/rules/json-depth';

/**
 * Every JSON body is parsed by Fastify's own parser (with its refusal of `__proto__` and `constructor.prototype`
 * keys), once its nesting has been measured on the text: a body nested past NESTING_MAX is refused with 400
 * `json_too_deep` before it is parsed, as no route takes anything that deep and the value would overflow the stack
 * wherever it is next walked (validation, storage, the answer).
 */
export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // parseAs 'string' hands over text; the type also allows the Buffer of parseAs 'buffer'.
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const tooDeep = jsonDepthProblem(text, 'body');
    if (tooDeep !== null) {
      done(tooDeep, undefined);
      return;
    }
    // Fastify's own parser answers through `done`; it returns nothing to wait for.
    void parse(request, text, done);
  });
}
