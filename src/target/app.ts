/**
 * buildApp(): the reference target as a ready Fastify instance that never listens (tests use inject(),
 * start.ts listens). Hook order per request:
 *   onRequest  Host allow list (421) → injected latency (reference.injectLatencyMs, only when > 0) → authentication (who) → rate limit (their bucket) → route guard (401/403)
 *   parsing    415 / 400 invalid JSON / 413, then each route validates its body against schemas/api (400)
 *   onSend     X-Request-Id on every answer
 */
import Fastify from 'fastify';
import { installAuthentication } from './auth/authenticate.ts';
import { createContext } from './context.ts';
import type { TargetEventBus } from './events.ts';
import { installContentTypes } from './http/content-types.ts';
import { frameworkErrorHandler, installErrorHandler } from './http/error-handler.ts';
import { installNotFound } from './http/not-found.ts';
import { installHostAllowList } from './http/host-allow-list.ts';
import { installInjectedLatency } from './http/inject-latency.ts';
import { installNoSniff } from './http/nosniff.ts';
import { genRequestId, installRequestId } from './http/request-id.ts';
import { resolveOptions } from './options.ts';
import { installRateLimit } from './ratelimit/plugin.ts';
import { accountRoutes } from './routes/account.ts';
import { campaignRoutes } from './routes/campaigns.ts';
import { loginRoutes } from './routes/login.ts';
import { messageRoutes } from './routes/messages.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { sandboxRoutes } from './routes/sandbox.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import type { BuiltReferenceApp, ReferenceTargetOptions } from './types.ts';
import { WebhookDelivery } from './webhooks/delivery.ts';
import { explorerRoutes } from './explorer/routes.ts';

export interface BuiltApp extends BuiltReferenceApp {
  /** The target's internal events (`message.received`, `message.status`), for delivery and tests. */
  events: TargetEventBus;
}

const ROUTES = [messageRoutes, sandboxRoutes, campaignRoutes, accountRoutes, loginRoutes, oauthRoutes, webhookRoutes];

export async function buildApp(opts: ReferenceTargetOptions = {}): Promise<BuiltApp> {
  const options = resolveOptions(opts);
  const app = Fastify({
    logger: options.logger,
    bodyLimit: options.bodyLimitBytes,
    genReqId: genRequestId,
    // Our genReqId reads and validates X-Request-Id itself; Fastify's option would echo anything.
    requestIdHeader: false,
    frameworkErrors: frameworkErrorHandler,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Timeouts an exposed server needs (src/target/README.md "Webhook URL policy"): idle keep-alive sockets, a head
    // or body that trickles in, a connection that never sends anything (checked every second, not Node's 30 s).
    keepAliveTimeout: options.server.keepAliveMs,
    connectionTimeout: options.server.idleMs + options.injectLatencyMs,
    requestTimeout: Math.max(options.server.requestMs, options.server.headersMs),
    http: { headersTimeout: options.server.headersMs, connectionsCheckingInterval: Math.min(1000, options.server.headersMs) },
    // close() destroys every socket instead of waiting for requests in flight: `serve` stops within 2 s.
    forceCloseConnections: true,
  });
  const ctx = createContext(
    options,
    (err) => app.log.error({ err }, 'event listener failed'),
    // Said at the first eviction and every 10,000th after it, so a flood does not flood the log too; on stderr
    // when the Fastify logger is off (`harness serve`'s default), so an eviction is never silent.
    (store, evicted) => {
      if (evicted !== 1 && evicted % 10_000 !== 0) return;
      const message = `${store} store full: oldest messages evicted (${evicted} so far)`;
      if (options.logger) app.log.warn({ store, evicted }, message);
      else process.stderr.write(`reference target: ${message}\n`);
    },
  );

  // First: a request for a host this target does not serve (DNS rebinding) is refused before anything else runs.
  installHostAllowList(app, options.allowedHosts);
  installInjectedLatency(app, options.injectLatencyMs);
  installContentTypes(app);
  installRequestId(app);
  installNoSniff(app);
  installErrorHandler(app);
  installNotFound(app);
  installAuthentication(app, ctx);
  installRateLimit(app, ctx);
  const delivery = new WebhookDelivery({
    store: ctx.webhooks,
    events: ctx.events,
    timers: ctx.timers,
    now: ctx.now,
    options: options.webhooks,
    policy: ctx.webhookPolicy,
    onAttemptFailed: (info) => app.log.debug(info, 'webhook delivery attempt failed'),
  });
  app.addHook('onClose', async () => {
    ctx.timers.clearAll();
    ctx.events.clear();
    await delivery.close();
  });

  for (const routes of ROUTES) await app.register(routes, { ctx });
  if (opts.explorer) await app.register(explorerRoutes, { document: opts.explorer.document, credentials: ctx.credentials, sandboxKey: ctx.apiKeys.addSandboxKey() });
  await app.ready();
  return { app, credentials: ctx.credentials, events: ctx.events };
}
