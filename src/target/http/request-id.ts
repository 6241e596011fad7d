/**
 * X-Request-Id: echoed when the client sent a sane one, generated otherwise. Echoing is limited to short
 * visible-ASCII values so a client cannot inject header-breaking or log-polluting content through it.
 */
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { randomHex } from '../ids.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTED = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Fastify `genReqId`: the client's id when acceptable, else `req_<16 hex>`. */
export function genRequestId(req: IncomingMessage): string {
  const sent = req.headers[REQUEST_ID_HEADER];
  if (typeof sent === 'string' && ACCEPTED.test(sent)) return sent;
  return `req_${randomHex(8)}`;
}

/**
 * onSend rather than onRequest: onSend also runs for replies produced before routing finished (404s,
 * body-parser errors, 429s thrown by hooks), so no response can leave without the header.
 */
export function installRequestId(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Request-Id', request.id);
    done(null, payload);
  });
}
