/** The spec-only target's credentials as its operators would export them for the config file's ${SPEC_*} references. */
import type { SpecCredentials } from './state.ts';

export function specEnv(credentials: SpecCredentials): Record<string, string> {
  const { oauth, otherClient } = credentials;
  return {
    SPEC_API_KEY: credentials.apiKey,
    SPEC_RESTRICTED_KEY: credentials.restrictedKey,
    SPEC_SECOND_KEY: credentials.secondKey,
    SPEC_LOAD_KEY: credentials.loadKey,
    SPEC_LOGIN_EMAIL: credentials.email,
    SPEC_LOGIN_PASSWORD: credentials.password,
    SPEC_OAUTH_CLIENT_ID: oauth.clientId,
    SPEC_OAUTH_CLIENT_SECRET: oauth.clientSecret,
    SPEC_OAUTH_REDIRECT_URI: oauth.redirectUri,
    SPEC_OAUTH_OTHER_CLIENT_ID: otherClient.clientId,
    SPEC_OAUTH_OTHER_CLIENT_SECRET: otherClient.clientSecret,
    SPEC_OAUTH_OTHER_REDIRECT_URI: otherClient.redirectUri,
    SPEC_JWT_SIGNING_KEY: credentials.jwtSigningKey,
  };
}
