/** The auth suite: API keys, JWT login and use, OAuth2 authorization code (SERVICE-SPEC §5, §7; PROFILE Authentication). */
import type { Suite } from '../../src/conformance/registry.ts';
import { API_KEY_CHECKS } from './api-key.ts';
import { CHALLENGE_CHECKS } from './challenges.ts';
import { JWT_LOGIN_CHECKS } from './jwt-login.ts';
import { JWT_MINTED_CHECKS } from './jwt-minted.ts';
import { badLoginNoToken } from './jwt-login-refusal.ts';
import { JWT_TOKEN_CHECKS } from './jwt-tokens.ts';
import { OAUTH_AUTHORIZE_CHECKS } from './oauth-authorize.ts';
import { OAUTH_ERROR_CHECKS } from './oauth-errors.ts';
import { OAUTH_FLOW_CHECKS } from './oauth-flow.ts';

export const authSuite: Suite = {
  name: 'auth',
  title: 'Authentication: API keys, JWT login, OAuth2 authorization code',
  // The OAuth flow comes first among the OAuth checks: with consent "code" it spends the one code there is.
  checks: [...API_KEY_CHECKS, ...CHALLENGE_CHECKS, ...JWT_LOGIN_CHECKS, badLoginNoToken, ...JWT_TOKEN_CHECKS, ...JWT_MINTED_CHECKS, ...OAUTH_FLOW_CHECKS, ...OAUTH_ERROR_CHECKS, ...OAUTH_AUTHORIZE_CHECKS],
};
