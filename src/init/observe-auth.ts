/**
 * Login, the account read with a JWT, and where the OAuth authorization endpoint lives (SERVICE-SPEC §5 does not
 * show its address): PROFILE's path first, then a few common spellings.
 */
import type { CredentialsConfig } from '../config/types.ts';
import type { Findings } from './choices.ts';
import { isSuccess, type Paths, type ProbeClient, type Seen } from './probe-client.ts';

const AUTHORIZE_PATHS = ['/v1/oauth2/authorize', '/oauth/authorize', '/oauth2/authorize', '/v1/authorize', '/authorize'];

export async function observeAccessAndOauth(probe: ProbeClient, credentials: CredentialsConfig, paths: Paths, out: Findings, keep: (s: Seen) => void): Promise<void> {
  const login = credentials.login;
  if (login) {
    const seen = await probe.send({ method: 'POST', path: paths.login!, json: { email: login.email, password: login.password } });
    if (isSuccess(seen.res.status)) {
      out.set('api.successStatus.login', seen.res.status, `${seen.said} to HARNESS_LOGIN_EMAIL / _PASSWORD`, 'behaviour');
      const token = seen.res.json<{ token?: string }>()?.token;
      if (typeof token === 'string') {
        const account = await probe.send({ path: paths.account!, bearer: token });
        if (isSuccess(account.res.status)) out.set('api.successStatus.account', account.res.status, `${account.said} with the login's JWT`, 'behaviour');
      }
    } else if (seen.res.status === 404) {
      // Switching an area off would skip MUST checks too: that is the user's call, never init's.
      out.note(`${seen.said}: no login (a target without one says so with conformance.profile.jwt: false; init does not switch an area off)`);
    } else {
      keep(seen);
      out.note(`${seen.said} to HARNESS_LOGIN_EMAIL / _PASSWORD: login was not observed`);
    }
  }
  const oauth = credentials.oauth;
  if (!oauth) return;
  const query = new URLSearchParams({ response_type: 'code', client_id: oauth.clientId, redirect_uri: oauth.redirectUri, scope: 'messages:read', state: 'harness-init' }).toString();
  const tried: string[] = [];
  for (const path of [paths.oauthAuthorize!, ...AUTHORIZE_PATHS.filter((p) => p !== paths.oauthAuthorize)]) {
    const seen = await probe.send({ path: `${path}?${query}`, headers: { accept: 'text/html' } });
    const said = `GET ${path}?response_type=code&client_id=… answered ${seen.res.status}`;
    // Anything but 404 means the path exists (a 400 for a client it does not know is still its answer).
    if (seen.res.status !== 404) {
      out.set('api.paths.oauthAuthorize', path, tried.length > 0 ? `${said} (before: ${tried.join('; ')})` : said, 'behaviour');
      return;
    }
    tried.push(`${path}: ${seen.res.status}`);
  }
  out.note(`the OAuth authorization endpoint was not found (${tried.join('; ')}): set api.paths.oauthAuthorize by hand`);
}
