/**
 * Rules between options, which the JSON Schema cannot state (or states with unreadable messages). Each rule
 * reads the merged config (defaults, file and flags together) and names the key to fix; `at` lists other
 * keys to point at when the named key is absent from the file (a missing `code` is best shown at `consent`).
 */
import type { KeyPath } from './key-path.ts';
import type { HarnessConfig } from './types.ts';

export interface SemanticIssue {
  path: KeyPath;
  message: string;
  at?: KeyPath[];
}

type Rule = (config: HarnessConfig) => SemanticIssue[];

/** Fields that only make sense together: every one given, or none. */
function together(base: KeyPath, value: object | undefined, fields: readonly string[]): SemanticIssue[] {
  if (!value) return [];
  const section = value as Record<string, unknown>;
  const given = fields.filter((f) => section[f] !== undefined);
  if (given.length === 0 || given.length === fields.length) return [];
  const first = given[0] ?? '';
  return fields
    .filter((f) => section[f] === undefined)
    .map((f) => ({ path: [...base, f], message: `is required when ${[...base, first].join('.')} is set`, at: [[...base, first]] }));
}

const rules: Rule[] = [
  (c) => {
    const { defaultLimit, maxLimit } = c.api.pagination;
    return defaultLimit > maxLimit
      ? [{ path: ['api', 'pagination', 'defaultLimit'], message: `must be <= api.pagination.maxLimit (${maxLimit})`, at: [['api', 'pagination', 'maxLimit']] }]
      : [];
  },
  (c) => {
    const oauth = c.credentials.oauth;
    const at = [['credentials', 'oauth', 'consent']];
    if (oauth?.consent === 'code' && oauth.code === undefined) {
      return [{ path: ['credentials', 'oauth', 'code'], message: 'is required when credentials.oauth.consent is "code"', at }];
    }
    if (oauth?.consent === 'command' && oauth.codeCommand === undefined) {
      return [{ path: ['credentials', 'oauth', 'codeCommand'], message: 'is required when credentials.oauth.consent is "command"', at }];
    }
    return [];
  },
  (c) => {
    const rl = c.reference.rateLimit;
    return rl.refillPerSecond !== undefined && rl.algorithm !== 'token-bucket'
      ? [{ path: ['reference', 'rateLimit', 'refillPerSecond'], message: `only applies when reference.rateLimit.algorithm is "token-bucket" (it is "${rl.algorithm}")` }]
      : [];
  },
  (c) => [
    ...together(['credentials', 'login'], c.credentials.login, ['email', 'password']),
    ...together(['credentials', 'oauth'], c.credentials.oauth, ['clientId', 'clientSecret', 'redirectUri']),
    ...together(['credentials', 'oauth', 'otherClient'], c.credentials.oauth?.otherClient, ['clientId', 'clientSecret', 'redirectUri']),
    ...together(['credentials', 'otherAccount', 'login'], c.credentials.otherAccount?.login, ['email', 'password']),
    ...together(['reference', 'credentials', 'login'], c.reference.credentials?.login, ['email', 'password']),
    ...together(['reference', 'credentials', 'oauth'], c.reference.credentials?.oauth, ['clientId', 'clientSecret', 'redirectUri']),
    ...together(['reference', 'credentials', 'otherAccount', 'login'], c.reference.credentials?.otherAccount?.login, ['email', 'password']),
  ],
];

/** Every rule's issues, in rule order. */
export function semanticIssues(config: HarnessConfig): SemanticIssue[] {
  return rules.flatMap((rule) => rule(config));
}
