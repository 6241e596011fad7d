/**
 * What every ownership check shares: the precondition (a second account's credential, or a target that declares
 * one account), the two accounts' requests, and how a refusal is told from an answer. Account A is
 * `credentials.apiKey`'s account; account B is `credentials.otherAccount`'s.
 */
import type { Check, OwaspItem } from '../../../src/conformance/check.ts';
import { notApplicable, skip } from '../../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../../src/conformance/context.ts';
import { guarded, requiresCredential, withPrecondition } from '../../../src/conformance/preconditions.ts';
import type { ProfileArea } from '../../../src/config/types.ts';
import type { HttpResponse, RequestOptions } from '../../../src/http/client.ts';

export const NOT_APPLICABLE = 'ownership: not applicable — the target declares one account';

/** The line a multi-account target without a second credential gets: exactly which key to add. */
export const NO_OTHER_ACCOUNT =
  'not run: no second account configured — add credentials.otherAccount.apiKey (env HARNESS_OTHER_API_KEY), a ' +
  'full-scope key of another account of the target, or declare target.accounts: single';

export const OWNERSHIP_OWASP: readonly OwaspItem[] = ['API1:2023'];

/** SERVICE-SPEC: a credential lacking permission gets 403 (refused); PROFILE names what belongs to whom. */
export const MUST_REF = 'SERVICE-SPEC §5 rule 5 ("A key lacking permissions yields 403"), §7 (403 Forbidden); PROFILE Accounts, ownership and exposure';
export const MUST_CLAUSES = ['§5.5', '§7.403'] as const;

/**
 * The ownership precondition, outermost: a single-account target makes the rule not applicable; a multi-account
 * target without `credentials.otherAccount.apiKey` leaves it not run (a skipped MUST check: incomplete). A PROFILE
 * area the check's resource lives in, switched off, makes it not applicable too: there is nothing to own.
 */
export function ownershipCheck(check: Check, area?: ProfileArea): Check {
  const accounts = withPrecondition((ctx) => (ctx.config.target.accounts === 'single' ? notApplicable(NOT_APPLICABLE) : undefined));
  const other = withPrecondition((ctx) => (ctx.credentials.otherAccount?.apiKey ? undefined : NO_OTHER_ACCOUNT));
  const resource = withPrecondition((ctx) =>
    area !== undefined && !ctx.config.conformance.profile[area]
      ? notApplicable(`ownership: not applicable — the target has no ${area} (conformance.profile.${area}: false)`)
      : undefined,
  );
  return guarded({ ...check, owasp: OWNERSHIP_OWASP }, accounts, resource, other, requiresCredential('apiKey'));
}

export type Account = 'A' | 'B';

/** A request with account A's key (credentials.apiKey) or account B's (credentials.otherAccount.apiKey). */
export function as(ctx: CheckContext, account: Account, options: Omit<RequestOptions, 'bearer'>): Promise<HttpResponse> {
  const bearer = account === 'A' ? ctx.credentials.apiKey : ctx.credentials.otherAccount?.apiKey;
  if (!bearer) skip(account === 'A' ? 'no credentials.apiKey configured for this target' : NO_OTHER_ACCOUNT);
  return ctx.http.request({ ...options, bearer });
}

export function is2xx(res: HttpResponse): boolean {
  return res.status >= 200 && res.status <= 299;
}

/** Values of A's resource (ids, names) that B's answer shows, in its body or its headers. */
export function echoed(res: HttpResponse, values: readonly string[]): string[] {
  const headers = Object.values(res.headers).join('\n');
  return values.filter((value) => value.length > 0 && (res.text.includes(value) || headers.includes(value)));
}

/** Items of a `{data: [...]}` list answer (the message and webhook lists), [] when there are none to read. */
export function listItems(res: HttpResponse): Array<Record<string, unknown>> {
  const data = res.json<{ data?: unknown }>()?.data;
  return Array.isArray(data) ? data.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null) : [];
}
