/**
 * The embedded reference target's options (`reference:` in the config, `harness serve`'s flags): its address,
 * rate limits, lifetimes and delays, fixed credentials. Defaults in defaults.ts; the target reads them through
 * src/target/options.ts.
 */
import type { OAuthClientConfig } from './credential-types.ts';

export type RateLimitAlgorithm = 'fixed-window' | 'sliding-window' | 'token-bucket';

export interface ReferenceRateLimitConfig {
  /** @default "fixed-window" */
  algorithm: RateLimitAlgorithm;
  /** Requests per window (fixed/sliding window) or bucket size (token bucket). @default 100 */
  quota: number;
  /** Window length in seconds. @default 1 */
  windowSeconds: number;
  /**
   * Token bucket refill per second (token-bucket only: the loader rejects it for the window algorithms).
   * @default quota / windowSeconds, filled in by the loader when `algorithm` is "token-bucket"; absent otherwise
   */
  refillPerSecond?: number;
  /** Requests per window for unauthenticated clients, per client address. @default 200 */
  anonymousQuota: number;
}

export interface ReferenceConfig {
  /** @default "127.0.0.1" */
  host: string;
  /** @default 0 (ephemeral) */
  port: number;
  rateLimit: ReferenceRateLimitConfig;
  /** Quota of the `load` credential per window: high enough never to bind. @default 1000000000 */
  loadQuota: number;
  /**
   * Fixed delay in ms added to every response (`harness serve --inject-latency`): a deliberately slower build,
   * e.g. to try a CI latency gate. 0 installs no hook at all. @default 0
   */
  injectLatencyMs: number;
  /**
   * Host names (the `Host` header, port ignored) the target answers besides loopback (localhost, *.localhost,
   * 127.0.0.1, [::1]) and the address it listens on; any other Host gets 421. A page on another origin that
   * rebinds its DNS name to this machine sends its own name, so it is refused (src/target/README.md "Threat model
   * of the sandbox"). "*" turns the check off. @default []
   */
  allowedHosts: string[];
  /** Failed logins per email before 429, and the window they are counted in. @default 5 per 60 s */
  loginThrottle: { attempts: number; windowSeconds: number };
  /** Token and code lifetimes in seconds. @default jwt 900, accessToken 3600, code 60 */
  tokens: { jwtTtlSeconds: number; accessTokenTtlSeconds: number; codeTtlSeconds: number };
  /** Delays of the sent → delivered → read progression, in ms. @default 200 and 400 */
  statusDelaysMs: { delivered: number; read: number };
  /**
   * Webhook delivery: attempts, first back-off delay and timeout (@default 5, 500 ms, 5000 ms), and the hosts
   * webhook URLs may name besides loopback (`host` or `host:port`; src/target/README.md "Webhook URL policy").
   * @default allow []
   */
  webhooks: { attempts: number; baseDelayMs: number; timeoutMs: number; allow: string[] };
  /** Fixed credentials (otherwise random per start). */
  credentials?: {
    apiKey?: string;
    restrictedKey?: string;
    secondKey?: string;
    loadKey?: string;
    login?: { email: string; password: string };
    oauth?: OAuthClientConfig;
    /** The second account's key and login user. */
    otherAccount?: { apiKey?: string; login?: { email: string; password: string } };
  };
}
