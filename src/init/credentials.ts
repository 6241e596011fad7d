/**
 * Init's credentials: the very `${HARNESS_*}` references the shipped harness.config.yaml reads, resolved by the
 * config loader against the environment — so init uses what the run will use, and the config it writes holds the
 * references, never a value.
 */
import { stringify } from 'yaml';
import { ConfigError } from '../errors/harness-errors.ts';
import { checkParsedConfig } from '../config/check-document.ts';
import { parseYaml } from '../config/parse-yaml.ts';
import type { CredentialsConfig } from '../config/types.ts';

export const CREDENTIAL_REFS = {
  apiKey: '${HARNESS_API_KEY:-}',
  restrictedKey: '${HARNESS_RESTRICTED_KEY:-}',
  secondKey: '${HARNESS_SECOND_KEY:-}',
  loadKey: '${HARNESS_LOAD_KEY:-}',
  login: { email: '${HARNESS_LOGIN_EMAIL:-}', password: '${HARNESS_LOGIN_PASSWORD:-}' },
  jwtSigning: { alg: 'HS256', key: '${HARNESS_JWT_KEY:-}' },
  otherAccount: {
    apiKey: '${HARNESS_OTHER_API_KEY:-}',
    login: { email: '${HARNESS_OTHER_LOGIN_EMAIL:-}', password: '${HARNESS_OTHER_LOGIN_PASSWORD:-}' },
  },
  oauth: {
    clientId: '${HARNESS_OAUTH_CLIENT_ID:-}',
    clientSecret: '${HARNESS_OAUTH_CLIENT_SECRET:-}',
    redirectUri: '${HARNESS_OAUTH_REDIRECT_URI:-}',
    otherClient: {
      clientId: '${HARNESS_OAUTH_OTHER_CLIENT_ID:-}',
      clientSecret: '${HARNESS_OAUTH_OTHER_CLIENT_SECRET:-}',
      redirectUri: '${HARNESS_OAUTH_OTHER_REDIRECT_URI:-}',
    },
  },
} as const;

/** The credentials the run would read from this environment (empty ones dropped, as the run drops them). */
export function credentialsFromEnv(env: Record<string, string | undefined>): CredentialsConfig {
  // Through the YAML pipeline: interpolation of ${VAR} happens there, exactly as for the run's config file.
  const parsed = parseYaml(stringify({ credentials: CREDENTIAL_REFS }));
  if (!parsed.ok) throw new ConfigError(parsed.issues);
  const result = checkParsedConfig(parsed.parsed, undefined, { env });
  if (!result.config) throw new ConfigError(result.issues);
  return structuredClone(result.config.credentials) as CredentialsConfig;
}
