/**
 * `reference.injectLatencyMs` (`harness serve --inject-latency <ms>`): a fixed delay before every request is
 * handled, so every response comes that much later: a deliberately slower build for trying a CI latency gate
 * (docs/ci-gate.md). Installed first, so it applies to every answer (401s, 404s and 429s included). With 0 no
 * hook is installed at all: the default costs nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

export function installInjectedLatency(app: FastifyInstance, delayMs: number): void {
  if (delayMs <= 0) return;
  app.addHook('onRequest', async () => {
    await sleep(delayMs);
  });
}
