/**
 * Public contract of the reference target: what `buildApp` / `startReferenceTarget` take and return.
 * The options are the `reference:` section of harness.config.yaml (src/config/types.ts), every field optional.
 */
import type { FastifyInstance } from 'fastify';
import type { ReferenceConfig } from '../config/types.ts';

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

export interface ReferenceTargetOptions extends DeepPartial<Omit<ReferenceConfig, 'credentials' | 'webhooks' | 'allowedHosts'>> {
  credentials?: ReferenceConfig['credentials'];
  /** Host names answered besides loopback and the listen address (http/host-allow-list.ts); "*": every host. */
  allowedHosts?: readonly string[];
  /** Delivery tuning and the webhook URL allow list (webhooks/url-policy.ts). */
  webhooks?: Partial<Omit<ReferenceConfig['webhooks'], 'allow'>> & { allow?: readonly string[] };
  /** Fastify logger on/off. @default false */
  logger?: boolean;
  /** Socket timeouts (options.ts DEFAULTS.server); programmatic only, so tests can shorten them. */
  server?: Partial<ServerTimeouts>;
  /** Store capacities (options.ts DEFAULTS.stores); programmatic only, so tests can see an eviction. */
  stores?: Partial<{ inbound: number; outbound: number }>;
  /** Clock in ms since epoch; tests replace it. @default Date.now */
  now?: () => number;
  /**
   * Serve the browser sandbox at /sandbox (an API explorer) showing this OpenAPI document (`harness serve`
   * passes the one `harness export openapi` writes, with server "/"). @default no sandbox page
   */
  explorer?: { document: Record<string, unknown> };
  /**
   * HS256 key of the user JWTs, as UTF-8 text. Random per start unless given: `harness run` gives one to the
   * target it embeds, so the harness can mint test tokens (expired, not yet valid, other audience) with it.
   */
  jwtSigningKey?: string;
}

/** How long the server waits on a client; an exposed target must not hold sockets for whoever opens them. */
export interface ServerTimeouts {
  /** A keep-alive connection idle this long after a response is closed. */
  keepAliveMs: number;
  /** The whole request head must arrive within this (also: a connection that sends nothing is closed). */
  headersMs: number;
  /** The whole request, body included, must arrive within this. */
  requestMs: number;
  /**
   * A connection with no traffic either way for this long is closed — one that never sends a request too (Node
   * checks `headersMs` only once a request has begun). The injected latency is added to it.
   */
  idleMs: number;
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
  /**
   * The second account (PROFILE.md "Accounts, ownership and exposure"): its own full-scope key and login user. It
   * sees nothing of the first account's messages, campaigns, webhooks and idempotency keys (ownership checks).
   */
  otherAccount: { apiKey: string; login: { email: string; password: string } };
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
