/**
 * Every secret a config holds, for the report writers and the evidence recorder to redact. The list lives
 * here, next to the config's shape, so a new credential field is added to it in the same change.
 * Identifiers (emails, client ids, redirect URIs) are not secrets: reports keep them readable.
 */
import type { DeepReadonly, HarnessConfig } from './types.ts';

/** Non-empty secret strings of `config`, each once, in a stable order. */
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
    r?.apiKey,
    r?.restrictedKey,
    r?.secondKey,
    r?.loadKey,
    r?.login?.password,
    r?.oauth?.clientSecret,
    config.webhooks?.preRegistered?.secret,
  ];
  return [...new Set(candidates.filter((s): s is string => typeof s === 'string' && s.length > 0))];
}
