/** The environment a user exports for `harness init` and `harness run`: HARNESS_* names, as `harness serve` prints them. */
import type { CredentialsConfig } from '../../src/config/types.ts';

export function harnessEnv(c: CredentialsConfig): Record<string, string> {
  const pairs: Array<[string, string | undefined]> = [
    ['HARNESS_API_KEY', c.apiKey],
    ['HARNESS_RESTRICTED_KEY', c.restrictedKey],
    ['HARNESS_SECOND_KEY', c.secondKey],
    ['HARNESS_LOAD_KEY', c.loadKey],
    ['HARNESS_LOGIN_EMAIL', c.login?.email],
    ['HARNESS_LOGIN_PASSWORD', c.login?.password],
    ['HARNESS_JWT_KEY', c.jwtSigning?.key],
    ['HARNESS_OTHER_API_KEY', c.otherAccount?.apiKey],
    ['HARNESS_OTHER_LOGIN_EMAIL', c.otherAccount?.login?.email],
    ['HARNESS_OTHER_LOGIN_PASSWORD', c.otherAccount?.login?.password],
    ['HARNESS_OAUTH_CLIENT_ID', c.oauth?.clientId],
    ['HARNESS_OAUTH_CLIENT_SECRET', c.oauth?.clientSecret],
    ['HARNESS_OAUTH_REDIRECT_URI', c.oauth?.redirectUri],
    ['HARNESS_OAUTH_OTHER_CLIENT_ID', c.oauth?.otherClient?.clientId],
    ['HARNESS_OAUTH_OTHER_CLIENT_SECRET', c.oauth?.otherClient?.clientSecret],
    ['HARNESS_OAUTH_OTHER_REDIRECT_URI', c.oauth?.otherClient?.redirectUri],
  ];
  return Object.fromEntries(pairs.filter((p): p is [string, string] => typeof p[1] === 'string' && p[1].length > 0));
}

/** The values that must never appear, whole or as any 8-character piece, in what init writes or prints. */
export function secretValues(c: CredentialsConfig): string[] {
  return [c.apiKey, c.restrictedKey, c.secondKey, c.loadKey, c.login?.password, c.jwtSigning?.key, c.otherAccount?.apiKey, c.otherAccount?.login?.password, c.oauth?.clientSecret, c.oauth?.otherClient?.clientSecret]
    .filter((s): s is string => typeof s === 'string' && s.length > 0);
}

export function leakedFragments(text: string, secrets: readonly string[]): string[] {
  const leaks: string[] = [];
  for (const whole of secrets) {
    // A key's type label (sk_restricted_) is public; the random part after it is the secret.
    const secret = whole.replace(/^(?:sk|cs)_[a-z_]*_/, '');
    for (let i = 0; i + 8 <= secret.length; i++) {
      const at = text.indexOf(secret.slice(i, i + 8));
      if (at >= 0) leaks.push(`${whole.length}-char secret, piece at ${i}, found at offset ${at}`);
    }
  }
  return leaks;
}

export function valueAt(root: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), root);
}
