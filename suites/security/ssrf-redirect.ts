/**
 * A redirect is not followed at registration (OWASP API7:2023 prevention: "disable HTTP redirections"). Only what
 * can be seen honestly: the harness registers a URL of its own loopback listener that answers every request for
 * it with a 307 to another path on the same listener. A target that checks the URL when it registers it and
 * follows the redirect asks for that path; against one that makes no request at registration the check skips and
 * says so (there was nothing to follow, so nothing to observe). The registration is deleted at once, before anything could make the target deliver.
 * Loopback only: with `webhooks.publicUrl` set the target cannot reach the listener, so the check skips.
 */
import { defineCheck, fail, skip } from '../../src/conformance/check.ts';
import { guarded } from '../../src/conformance/preconditions.ts';
import { LoopbackListener } from './loopback-listener.ts';
import { registerAndUndo, requiresWebhookManagement } from './registration.ts';

/** How long, after the delete, a redirect already asked for may take to arrive. */
const SETTLE_MS = 300;

export const redirectNotFollowed = guarded(
  defineCheck({
    id: 'security.ssrf.redirect-not-followed',
    suite: 'security',
    title: 'A webhook URL that redirects is not followed when the target checks it at registration',
    level: 'SHOULD',
    specRef: 'OWASP API Security Top 10 2023 API7 (Server Side Request Forgery: "disable HTTP redirections")',
    clauses: ['§6'],
    owasp: ['API7:2023'],
    async run(ctx) {
      if (ctx.config.webhooks.publicUrl) skip('webhooks.publicUrl is set: the target reaches the harness through it, not on loopback where this check listens');
      const listener = await LoopbackListener.start();
      try {
        const reg = await registerAndUndo(ctx, `${listener.origin}/hook`);
        if (!reg.accepted) skip(`the target refused the harness's loopback URL (${reg.response.status}), so it cannot be asked to follow a redirect from it`);
        if (listener.saw('/hook') && !listener.saw('/followed')) await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        if (listener.saw('/followed')) fail(`webhook registration: the target asked for ${listener.origin}/hook, got a 307 and followed it to /followed`, { expected: 'the redirect not followed', actual: listener.requests });
        if (!listener.saw('/hook')) skip('the target made no request to the webhook URL at registration: there was no redirect to follow, so nothing to observe');
      } finally {
        await listener.close();
      }
    },
  }),
  requiresWebhookManagement,
);
