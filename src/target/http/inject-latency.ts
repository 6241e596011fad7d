/**
 * `reference.injectLatencyMs` (`harness serve --inject-latency <ms>`): a fixed delay before every request is
 * handled, so every response comes that much later: a deliberately slower build for trying a CI latency gate
 * (docs/ci-gate.md). Installed first, so it applies to every answer (401s, 404s and 429s included). With 0 no
 * hook is installed at all: the default costs nothing.
 */
import type { FastifyInstance } from 'fastify';

export function installInjectedLatency(app: FastifyInstance, delayMs: number): void {
  if (delayMs <= 0) return;
  // The global timer (not node:timers/promises), which a test's fake clock can move: the delay is tested on it.
  app.addHook('onRequest', () => new Promise<void>((resolve) => setTimeout(resolve, delayMs)));
}
