/**
 * Body parsers. Only JSON is accepted at the app level (the OAuth plugin adds forms for its own routes):
 * Fastify's built-in text/plain parser is removed so a text body gets 415 instead of reaching a handler.
 * The JSON parser is Fastify's own (prototype-poisoning protection included) with one change: an empty body
 * is "no body", so a bodiless DELETE that still says `Content-Type: application/json` is not a 400.
 */
import type { FastifyInstance } from 'fastify';

export function installContentTypes(app: FastifyInstance): void {
  app.removeContentTypeParser(['text/plain', 'application/json']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
