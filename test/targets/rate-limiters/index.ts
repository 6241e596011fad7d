/**
 * Real rate limiters as targets, as deployed: express-rate-limit (the most used Node limiter) in each of its IETF
 * header modes, and @fastify/rate-limit, each in front of one cheap JSON route that answers every path, on
 * 127.0.0.1 port 0. Their headers come from the libraries themselves, so the readers are tested against what
 * the ecosystem really sends, not against our idea of it.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import Fastify from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';

export interface LimiterTarget {
  baseUrl: string;
  close(): Promise<void>;
}

const BODY = { data: [], has_more: false };

export interface ExpressLimiterOptions {
  standardHeaders: 'draft-6' | 'draft-7' | 'draft-8';
  limit: number;
  windowMs: number;
  /** X-RateLimit-* beside the standard headers (express-rate-limit's default: true). */
  legacyHeaders?: boolean;
}

export async function startExpressLimiter(options: ExpressLimiterOptions): Promise<LimiterTarget> {
  const app = express();
  app.use(rateLimit({ windowMs: options.windowMs, limit: options.limit, standardHeaders: options.standardHeaders, legacyHeaders: options.legacyHeaders ?? true }));
  app.use((_req, res) => {
    res.json(BODY);
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(0, '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface FastifyLimiterOptions {
  max: number;
  timeWindowMs: number;
  /** RateLimit-Limit / -Remaining / -Reset instead of X-RateLimit-*. */
  enableDraftSpec?: boolean;
}

export async function startFastifyLimiter(options: FastifyLimiterOptions): Promise<LimiterTarget> {
  const app = Fastify({ logger: false });
  await app.register(fastifyRateLimit, { max: options.max, timeWindow: options.timeWindowMs, ...(options.enableDraftSpec ? { enableDraftSpec: true } : {}) });
  app.get('/*', async () => BODY);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, close: () => app.close() };
}
