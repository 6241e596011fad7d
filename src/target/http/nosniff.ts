/**
 * `X-Content-Type-Options: nosniff` on every answer (PROFILE "Accounts, ownership and exposure"; OWASP ASVS 4.0.3
 * V14.4.4): a browser that loads an API answer must not guess it is HTML or script. onSend, like the request id,
 * so answers made before routing finished (404s, body-parser errors, 429s) carry it too.
 */
import type { FastifyInstance } from 'fastify';

export function installNoSniff(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    done(null, payload);
  });
}
