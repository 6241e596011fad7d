/**
 * Auth / OAuth2 authorization endpoint errors: a request with an unknown client_id or an unregistered redirect_uri
 * is answered to the user, never redirected (RFC 6749 §4.1.2.1: the endpoint must not be an open redirector).
 */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { expectStatus } from '../../src/conformance/expect.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { oauthCheck, oauthConfig } from '../lib/oauth-client.ts';

/** A redirect URI no client registered. */
const FOREIGN_REDIRECT = 'https://harness-unregistered.example/callback';

interface BadRequest {
  what: string;
  res: HttpResponse;
  /** Where an open redirector would send the user. */
  redirectUri: string;
}

async function badAuthorizationRequests(ctx: CheckContext): Promise<BadRequest[]> {
  const oauth = oauthConfig(ctx);
  const base = { response_type: 'code', scope: oauth.scope, state: randomBytes(8).toString('hex') };
  const cases: Array<[string, Record<string, string>]> = [
    ['an unknown client_id', { ...base, client_id: `harness-unknown-${randomBytes(6).toString('hex')}`, redirect_uri: FOREIGN_REDIRECT }],
    ['a redirect_uri not registered for the client', { ...base, client_id: oauth.clientId, redirect_uri: FOREIGN_REDIRECT }],
  ];
  const out: BadRequest[] = [];
  for (const [what, query] of cases) {
    out.push({ what, res: await ctx.http.request({ method: 'GET', path: ctx.path('oauthAuthorize'), query }), redirectUri: query.redirect_uri! });
  }
  return out;
}

export const badClientNoRedirect = oauthCheck(
  defineCheck({
    id: 'auth.oauth.authorize-bad-client-no-redirect',
    suite: 'auth',
    title: 'An authorization request with an unknown client_id or an unregistered redirect_uri is not redirected there',
    level: 'SHOULD',
    specRef: 'RFC 6749 §4.1.2.1 ("MUST NOT automatically redirect the user-agent to the invalid redirection URI"), §10.15',
    clauses: ['§5.3'],
    async run(ctx) {
      for (const { what, res, redirectUri } of await badAuthorizationRequests(ctx)) {
        const location = res.header('location');
        const target = location !== undefined && URL.canParse(location, ctx.http.baseUrl) ? new URL(location, ctx.http.baseUrl) : undefined;
        const sent = new URL(redirectUri);
        if (res.status >= 300 && res.status < 400 && target && target.origin === sent.origin) {
          fail(`authorization request with ${what}: the target redirected to the unverified redirect_uri (${res.status} to ${target.origin}${target.pathname})`, { status: res.status, location: `${target.origin}${target.pathname}` });
        }
      }
    },
  }),
);

export const badClientRejected = oauthCheck(
  defineCheck({
    id: 'auth.oauth.authorize-bad-client-rejected',
    suite: 'auth',
    title: 'An authorization request with an unknown client_id or an unregistered redirect_uri is rejected (400 by default: api.rejectedStatus)',
    level: 'PROFILE',
    specRef: 'PROFILE Authentication ("An unknown client_id or a redirect_uri not registered for it is answered with 400, never a redirect")',
    clauses: ['§5.3'],
    async run(ctx) {
      for (const { what, res } of await badAuthorizationRequests(ctx)) expectStatus(res, ctx.config.api.rejectedStatus, `authorization request with ${what}`);
    },
  }),
);

export const OAUTH_AUTHORIZE_CHECKS = [badClientNoRedirect, badClientRejected];
