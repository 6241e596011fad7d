/**
 * The credentials a target accepts: random per start (so a leaked banner from one run is useless for the next)
 * unless the config fixes some of them.
 */
import { randomBytes } from 'node:crypto';
import type { ResolvedOptions } from './options.ts';
import type { ReferenceCredentials } from './types.ts';
import { randomToken } from './ids.ts';

export const DEFAULT_LOGIN_EMAIL = 'tester@example.com';
export const OTHER_ACCOUNT_EMAIL = 'other-tester@example.com';

export function createCredentials(fixed: ResolvedOptions['credentials']): ReferenceCredentials {
  return {
    apiKeys: {
      full: fixed.apiKey ?? randomToken('sk_live_'),
      restricted: fixed.restrictedKey ?? randomToken('sk_restricted_'),
      second: fixed.secondKey ?? randomToken('sk_second_'),
      load: fixed.loadKey ?? randomToken('sk_load_'),
    },
    login: fixed.login ?? { email: DEFAULT_LOGIN_EMAIL, password: randomBytes(12).toString('base64url') },
    oauth: fixed.oauth ?? {
      clientId: randomToken('client_', 8),
      clientSecret: randomToken('cs_'),
      redirectUri: 'http://127.0.0.1/callback',
    },
    otherOAuthClient: {
      clientId: randomToken('client_', 8),
      clientSecret: randomToken('cs_'),
      redirectUri: 'http://127.0.0.1/other-callback',
    },
    otherAccount: {
      apiKey: fixed.otherAccount?.apiKey ?? randomToken('sk_other_account_'),
      login: fixed.otherAccount?.login ?? { email: OTHER_ACCOUNT_EMAIL, password: randomBytes(12).toString('base64url') },
    },
  };
}
