/**
 * Public contract of the reference target: what `buildApp` / `startReferenceTarget` take and return.
 * The options are the `reference:` section of harness.config.yaml (src/config/types.ts), every field optional.
 */
import type { FastifyInstance } from 'fastify';
import type { ReferenceConfig } from '../config/types.ts';

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

export interface ReferenceTargetOptions extends DeepPartial<Omit<ReferenceConfig, 'credentials'>> {
  credentials?: ReferenceConfig['credentials'];
  /** Fastify logger on/off. @default false */
  logger?: boolean;
  /** Clock in ms since epoch; tests replace it. @default Date.now */
  now?: () => number;
  /**
   * HS256 key of the user JWTs, as UTF-8 text. Random per start unless given: `harness run` gives one to the
   * target it embeds, so the harness can mint test tokens (expired, not yet valid, other audience) with it.
   */
  jwtSigningKey?: string;
}

export const SCOPES = ['messages:send', 'messages:read', 'campaigns:write', 'webhooks:manage', 'sandbox'] as const;
export type Scope = (typeof SCOPES)[number];

/** The credentials a started reference target accepts; printed at start and handed to the harness. */
export interface ReferenceCredentials {
  apiKeys: {
    /** Every scope. */
    full: string;
    /** Every scope but `messages:send`. */
    restricted: string;
    /** Every scope; its own quota (isolation checks). */
    second: string;
    /** Every scope; quota that does not bind (throughput scenarios). */
    load: string;
  };
  login: { email: string; password: string };
  oauth: { clientId: string; clientSecret: string; redirectUri: string };
  /** A second OAuth client, for "another client's code" checks. */
  otherOAuthClient: { clientId: string; clientSecret: string; redirectUri: string };
}

export interface BuiltReferenceApp {
  app: FastifyInstance;
  credentials: ReferenceCredentials;
}

export interface StartedReferenceTarget extends BuiltReferenceApp {
  /** e.g. http://127.0.0.1:43121 (no trailing slash) */
  baseUrl: string;
  host: string;
  port: number;
  close(): Promise<void>;
}
