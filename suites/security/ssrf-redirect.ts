/**
 * A webhook URL that redirects is not followed (OWASP API7:2023 prevention: "disable HTTP redirections"): a target
 * that follows a redirect from a URL it accepted can be walked to any address its URL policy refuses. Only what can
 * be seen honestly: the harness registers a URL of its own loopback listener that answers every request for it with
 * a 307 to another path on the same listener, so nothing outside loopback is ever involved. A target that checks
 * the URL at registration is seen there; otherwise one sandbox inbound message makes it deliver once, and the
 * registration is deleted as soon as the first attempt arrives (no retries). Against a target that asks for the URL
 * neither way (no sandbox, no request at registration) the check skips and says so. With `webhooks.publicUrl` set
 * the target cannot reach the listener on loopback, so the check skips.
 */
import { randomInt } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { guarded } from '../../src/conformance/preconditions.ts';
import { randomPhone } from '../lib/webhook-session.ts';
import { LoopbackListener } from './lib/loopback-listener.ts';
import { PROBE_EVENTS, requiresWebhookManagement, undo } from './lib/registration.ts';

/** How long, after the first request for the URL, a redirect being followed may take to arrive. */
const SETTLE_MS = 300;
/** How often the listener is looked at while a delivery is awaited. */
const POLL_MS = 20;

async function until(seen: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!seen() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
}

/** One inbound message through the sandbox, for the target to deliver; why it could not be sent, or undefined. */
async function triggerDelivery(ctx: CheckContext): Promise<string | undefined> {
  if (!ctx.config.conformance.sandbox || !ctx.config.conformance.profile.sandbox) return 'the target has no sandbox (conformance.sandbox: false)';
  const res = await ctx.http.request({ method: 'POST', path: ctx.path('sandboxInbound'), json: { from: randomPhone(), text: `redirect probe ${randomInt(1e9)}` }, bearer: ctx.credentials.apiKey });
  return res.status >= 200 && res.status < 300 ? undefined : `the sandbox inbound message answered ${res.status}`;
}

export const redirectNotFollowed = guarded(
  defineCheck({
    id: 'security.ssrf.redirect-not-followed',
    suite: 'security',
    title: 'A webhook URL that redirects is not followed, when the target checks it at registration or delivers to it',
    level: 'SHOULD',
    specRef: 'OWASP API Security Top 10 2023 API7 (Server Side Request Forgery: "disable HTTP redirections")',
    clauses: ['§6'],
    owasp: ['API7:2023'],
    async run(ctx) {
      if (ctx.config.webhooks.publicUrl) skip('webhooks.publicUrl is set: the target reaches the harness through it, not on loopback where this check listens');
      const listener = await LoopbackListener.start();
      let id: string | undefined;
      let registered = false;
      let when = 'at registration';
      let noDelivery: string | undefined;
      let leftBehind: string | undefined;
      try {
        const res = await ctx.http.request({ method: 'POST', path: ctx.path('createWebhook'), json: { url: `${listener.origin}/hook`, events: [...PROBE_EVENTS] }, bearer: ctx.credentials.apiKey });
        if (res.status < 200 || res.status > 299) skip(`the target refused the harness's loopback URL (${res.status}), so it cannot be asked to follow a redirect from it`);
        registered = true;
        const body = res.json<Record<string, unknown>>();
        if (body && typeof body.secret === 'string') ctx.secrets.add(body.secret);
        id = body && typeof body.id === 'string' ? body.id : undefined;
        if (!listener.saw('/hook')) {
          when = 'on delivery';
          noDelivery = await triggerDelivery(ctx);
          if (!noDelivery) await until(() => listener.saw('/hook'), ctx.config.webhooks.waitSeconds * 1000);
        }
      } finally {
        // Deleted as soon as the first attempt came (or the wait ended): no retry follows it.
        leftBehind = registered ? await undo(ctx, id) : undefined;
        if (listener.saw('/hook')) await until(() => listener.saw('/followed'), SETTLE_MS);
        await listener.close();
      }
      if (listener.saw('/followed')) fail(`webhook ${when}: the target asked for ${listener.origin}/hook, got a 307 and followed it to /followed${leftBehind ? `; and ${leftBehind}` : ''}`, { expected: 'the redirect not followed', actual: listener.requests });
      // Not the target's redirect fault, but the run must not end quietly with a registration left behind.
      if (leftBehind) throw new Error(`the probe's webhook registration could not be deleted: ${leftBehind}`);
      if (!listener.saw('/hook')) {
        skip(noDelivery
          ? `the target made no request to the webhook URL at registration, and ${noDelivery}: nothing to observe`
          : `the target made no request to the webhook URL, at registration or within webhooks.waitSeconds (${ctx.config.webhooks.waitSeconds} s) of an inbound message: nothing to observe`);
      }
    },
  }),
  requiresWebhookManagement,
);
