/**
 * Every secret a config holds, for the report writers and the evidence recorder to redact. The list lives
 * here, next to the config's shape, so a new credential field is added to it in the same change.
 * Identifiers (emails, client ids, redirect URIs) are not secrets: reports keep them readable.
 */
import type { DeepReadonly, HarnessConfig } from './types.ts';

/**
 * Non-empty secret strings of `config`, each once, in a stable order, of ANY length: the redactor decides where a
 * short one can be searched for (src/http/redact.ts). URLs the config holds contribute their userinfo password and
 * the values of secret-named query parameters (a webhook URL with `?token=`).
 */
export function collectSecrets(config: HarnessConfig | DeepReadonly<HarnessConfig>): string[] {
  const c = config.credentials;
  const r = config.reference.credentials;
  const candidates: unknown[] = [
    c.apiKey,
    c.restrictedKey,
    c.secondKey,
    c.loadKey,
    c.login?.password,
    c.oauth?.clientSecret,
    c.oauth?.code,
    c.oauth?.otherClient?.clientSecret,
    c.jwtSigning?.key,
    c.otherAccount?.apiKey,
    c.otherAccount?.login?.password,
    r?.apiKey,
    r?.restrictedKey,
    r?.secondKey,
    r?.loadKey,
    r?.login?.password,
    r?.oauth?.clientSecret,
    r?.otherAccount?.apiKey,
    r?.otherAccount?.login?.password,
    config.webhooks?.preRegistered?.secret,
    ...urlSecrets(config.target?.baseUrl),
    ...urlSecrets(config.webhooks?.preRegistered?.url),
    // load.metricsOut is KIND=URL; a remote-write endpoint's basic auth sits in the URL's userinfo.
    ...urlSecrets(config.load?.metricsOut?.replace(/^[a-z-]+=/, '')),
  ];
  return [...new Set(candidates.filter((s): s is string => typeof s === 'string' && s.length > 0))];
}

/**
 * Credential secrets with the environment variable harness.config.yaml reads each from:
 * reproduction commands (curl) write `$HARNESS_API_KEY` where the value was. Same fields as collectSecrets.
 */
export function namedCredentialSecrets(
  credentials: HarnessConfig['credentials'] | DeepReadonly<HarnessConfig['credentials']>,
  webhookSecret?: string,
): Array<[value: string, envName: string]> {
  const named: Array<[unknown, string]> = [
    [credentials.apiKey, 'HARNESS_API_KEY'],
    [credentials.restrictedKey, 'HARNESS_RESTRICTED_KEY'],
    [credentials.secondKey, 'HARNESS_SECOND_KEY'],
    [credentials.loadKey, 'HARNESS_LOAD_KEY'],
    [credentials.login?.password, 'HARNESS_LOGIN_PASSWORD'],
    [credentials.oauth?.clientSecret, 'HARNESS_OAUTH_CLIENT_SECRET'],
    [credentials.oauth?.code, 'HARNESS_OAUTH_CODE'],
    [credentials.oauth?.otherClient?.clientSecret, 'HARNESS_OAUTH_OTHER_CLIENT_SECRET'],
    [credentials.otherAccount?.apiKey, 'HARNESS_OTHER_API_KEY'],
    [credentials.otherAccount?.login?.password, 'HARNESS_OTHER_LOGIN_PASSWORD'],
    [webhookSecret, 'HARNESS_WEBHOOK_SECRET'],
  ];
  return named.filter((entry): entry is [string, string] => typeof entry[0] === 'string' && entry[0].length > 0);
}

const SECRET_QUERY = /^(password|passwd|client_secret|secret|token|access_token|api_key|apikey|key|sig|signature)$/i;

function urlSecrets(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const parsed = new URL(url);
    const out = parsed.password ? [decodeURIComponent(parsed.password)] : [];
    for (const [name, value] of parsed.searchParams) if (SECRET_QUERY.test(name) && value) out.push(value);
    return out;
  } catch {
    return [];
  }
}
