/**
 * Credentials as the rest of the program sees them: an empty string means "not set" (so a file can say
 * `apiKey: ${HARNESS_API_KEY:-}` and mean "only when the environment has it"), and a section left with
 * nothing in it disappears, so `config.credentials.login` is either usable or absent.
 */
import { isRecord } from './key-path.ts';
import type { CredentialsConfig, HarnessConfig } from './types.ts';

/** Deletes empty-string members, then members left as empty mappings. Mutates `section`. */
function dropEmpty(section: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(section)) {
    if (value === '') delete section[key];
    else if (isRecord(value)) {
      dropEmpty(value);
      if (Object.keys(value).length === 0) delete section[key];
    }
  }
}

/** Step 1, before the semantic checks: empty strings become absent in both credential sections. */
export function dropEmptyCredentials(config: HarnessConfig): void {
  dropEmpty(config.credentials as Record<string, unknown>);
  if (config.reference.credentials) {
    dropEmpty(config.reference.credentials as Record<string, unknown>);
    if (Object.keys(config.reference.credentials).length === 0) delete config.reference.credentials;
  }
}

/**
 * Step 2, after the semantic checks: an `oauth` section without any client field has nothing to act on
 * (its scope/consent/pkce only tune a client), so it is removed rather than handed on half-made.
 */
export function dropClientlessOAuth(credentials: CredentialsConfig): void {
  const oauth = credentials.oauth;
  if (oauth && oauth.clientId === undefined && oauth.clientSecret === undefined && oauth.redirectUri === undefined) {
    delete credentials.oauth;
  }
}

/** A `jwtSigning` section whose key is not set (e.g. `${HARNESS_JWT_KEY:-}` unset) mints nothing: removed. */
export function dropKeylessJwtSigning(credentials: CredentialsConfig): void {
  const signing = credentials.jwtSigning as Partial<NonNullable<CredentialsConfig['jwtSigning']>> | undefined;
  if (!signing) return;
  if (signing.key === undefined) delete credentials.jwtSigning;
  else signing.alg ??= 'HS256';
}
