/**
 * SSRF at webhook registration (OWASP API7:2023): a URL into the target's own network is refused when it is
 * registered, not merely never delivered to. SHOULD: OWASP's prevention list ("validate and sanitize all
 * client-supplied data … use an allow list"); the 422 the reference answers is PROFILE's choice, so any of
 * `api.rejectedStatus` passes here. Every accepted registration is deleted at once (lib/registration.ts).
 */
import { defineCheck, type Check } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { guarded } from '../../src/conformance/preconditions.ts';
import { registerAndUndo, requiresWebhookManagement, type Registration } from './lib/registration.ts';
import { SSRF_GROUPS, type SsrfGroup } from './lib/ssrf-addresses.ts';

const SPEC_REF = 'OWASP API Security Top 10 2023 API7 (Server Side Request Forgery: "use an allow list", validate client-supplied URLs); PROFILE Accounts, ownership and exposure (webhook URLs)';

/**
 * The group's URLs registered and undone in turn, up to the first the target does not refuse: one is the finding,
 * and a careless target is handed no more internal URLs than it takes to show it.
 */
export async function unrefused(ctx: CheckContext, urls: readonly string[]): Promise<string | undefined> {
  for (const [i, url] of urls.entries()) {
    const reg: Registration = await registerAndUndo(ctx, url);
    const untried = urls.length - i - 1 > 0 ? ` (the group's ${urls.length - i - 1} other URL(s) were not tried)` : '';
    if (reg.accepted) return `${url} was accepted (${reg.response.status})${reg.leftBehind ? `, and ${reg.leftBehind}` : ', then deleted at once'}${untried}`;
    if (!ctx.config.api.rejectedStatus.includes(reg.response.status)) return `${url} got ${reg.response.status}, not a refusal (${ctx.config.api.rejectedStatus.join(' or ')})${untried}`;
  }
  return undefined;
}

function ssrfCheck(group: SsrfGroup): Check {
  return guarded(
    defineCheck({
      id: `security.ssrf.${group.key}`,
      suite: 'security',
      title: `A webhook URL pointing at ${group.title} is refused at registration`,
      level: 'SHOULD',
      specRef: SPEC_REF,
      clauses: ['§6'],
      owasp: ['API7:2023'],
      async run(ctx) {
        const finding = await unrefused(ctx, group.urls);
        if (finding) fail(`webhook registration: an internal URL was not refused — ${finding}`, { expected: `refused (${ctx.config.api.rejectedStatus.join(' or ')})`, actual: finding });
      },
    }),
    requiresWebhookManagement,
  );
}

export const SSRF_CHECKS: readonly Check[] = SSRF_GROUPS.map(ssrfCheck);
