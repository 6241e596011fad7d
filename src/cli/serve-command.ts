/**
 * `harness serve`: the reference target alone, until SIGINT/SIGTERM. Prints one JSON line (machine-readable:
 * port and credentials) and then a readable table, so both scripts and people can start from its output.
 */
import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import type { RateLimitAlgorithm, ReferenceConfig } from '../config/types.ts';
import { TargetStartError, UsageError } from '../errors/harness-errors.ts';
import { integerFlag, positiveNumberFlag, resolveConfigFile } from './parse-flags.ts';

interface ServeFlags {
  port?: number;
  host?: string;
  config?: string;
  algorithm?: string;
  quota?: number;
  window?: number;
  refill?: number;
  anonymousQuota?: number;
  loadQuota?: number;
  jwtTtl?: number;
  accessTokenTtl?: number;
  codeTtl?: number;
  loginAttempts?: number;
  injectLatency?: number;
  webhookAllow?: string[];
  jwtKey?: string;
}

const ALGORITHMS: readonly RateLimitAlgorithm[] = ['fixed-window', 'sliding-window', 'token-bucket'];

/** Flag name per config path, so a bad value is reported against the flag the user typed. */
const FLAG_SOURCE: Record<string, string> = {
  'reference.port': '--port',
  'reference.host': '--host',
  'reference.rateLimit.algorithm': '--algorithm',
  'reference.rateLimit.quota': '--quota',
  'reference.rateLimit.windowSeconds': '--window',
  'reference.rateLimit.refillPerSecond': '--refill',
  'reference.rateLimit.anonymousQuota': '--anonymous-quota',
  'reference.loadQuota': '--load-quota',
  'reference.tokens.jwtTtlSeconds': '--jwt-ttl',
  'reference.tokens.accessTokenTtlSeconds': '--access-token-ttl',
  'reference.tokens.codeTtlSeconds': '--code-ttl',
  'reference.loginThrottle.attempts': '--login-attempts',
  'reference.injectLatencyMs': '--inject-latency',
};

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('start the reference target (the whole API as PROFILE.md fills it in) and print its credentials')
    .option('--port <n>', 'port to listen on; 0 picks a free one (default: reference.port, 0)', integerFlag('--port', 0, 65535))
    .option('--host <host>', 'address to bind (default: reference.host, 127.0.0.1)')
    .option('--config <file>', 'config file whose reference: section sets limits and lifetimes')
    .option('--algorithm <name>', `rate-limit algorithm: ${ALGORITHMS.join(', ')}`)
    .option('--quota <n>', 'requests per window per credential (token bucket: burst size)', integerFlag('--quota', 1, 1e9))
    .option('--window <s>', 'rate-limit window in seconds', positiveNumberFlag('--window'))
    .option('--refill <n>', 'token-bucket refill per second', positiveNumberFlag('--refill'))
    .option('--anonymous-quota <n>', 'requests per window per client address without credentials', integerFlag('--anonymous-quota', 1, 1e9))
    .option('--load-quota <n>', 'quota of the load credential per window', integerFlag('--load-quota', 1, 1e12))
    .option('--jwt-ttl <s>', 'JWT lifetime in seconds', integerFlag('--jwt-ttl', 1, 1e9))
    .option('--access-token-ttl <s>', 'OAuth access-token lifetime in seconds', integerFlag('--access-token-ttl', 1, 1e9))
    .option('--code-ttl <s>', 'OAuth authorization-code lifetime in seconds', integerFlag('--code-ttl', 1, 1e9))
    .option('--login-attempts <n>', 'failed logins per email before 429', integerFlag('--login-attempts', 1, 1e6))
    .option('--inject-latency <ms>', 'add a fixed delay to every response, e.g. to try a CI latency gate (default: reference.injectLatencyMs, 0)', integerFlag('--inject-latency', 0, 60_000))
    .option('--jwt-key <key>', 'HS256 key to sign JWTs with (test-only; default: a random key per start, printed with the credentials; also HARNESS_REFERENCE_JWT_KEY)')
    .option('--webhook-allow <host[:port]>', 'a host webhook URLs may name besides loopback (repeatable; adds to reference.webhooks.allow)', (value: string, previous: string[] = []) => [...previous, value])
    .action(async (flags: ServeFlags) => {
      if (flags.algorithm !== undefined && !ALGORITHMS.includes(flags.algorithm as RateLimitAlgorithm)) {
        throw new UsageError(`--algorithm: must be one of ${ALGORITHMS.join(', ')}, got "${flags.algorithm}"`);
      }
      // Loaded here, not at the top: only `serve` needs the reference target's server; other commands' starts stay light.
      const [{ defaultConfig, loadConfig }, { buildOpenApiDocument }, { credentialBanner, startReferenceTarget }] = await Promise.all([
        import('../config/index.ts'),
        import('../openapi/index.ts'),
        import('../target/index.ts'),
      ]);
      const config = loadConfig(resolveConfigFile(flags.config), {
        env: process.env,
        overrides: { reference: referenceOverrides(flags) },
        overrideSource: FLAG_SOURCE,
      });
      const reference = structuredClone(config.reference) as ReferenceConfig;
      // A test-only signing key, printed like every credential, so a tester's credentials.jwtSigning can mint the
      // expired and not-yet-valid tokens the auth suite needs (the embedded target shares its key the same way:
      // src/job/open-target.ts). Random per start unless given; never a production key.
      const jwtSigningKey = jwtKeyOf(flags.jwtKey ?? process.env.HARNESS_REFERENCE_JWT_KEY);
      if (flags.webhookAllow) reference.webhooks.allow = [...new Set([...reference.webhooks.allow, ...flags.webhookAllow])];
      let started;
      try {
        // The reference target implements PROFILE.md, so its sandbox shows the default description (server "/":
        // the explorer's "try it" calls the target that serves the page), whatever the config says of other targets.
        const document = buildOpenApiDocument({ api: defaultConfig().api, serverUrl: '/' });
        started = await startReferenceTarget({ ...reference, jwtSigningKey, explorer: { document } });
      } catch (err) {
        throw new TargetStartError(`cannot listen on ${reference.host}:${reference.port}: ${(err as Error).message}`, { cause: err });
      }
      const banner = credentialBanner(started.credentials, started.baseUrl, { jwtSigningKey });
      process.stdout.write(
        `${banner.json}\n${banner.table}\n\nBrowser sandbox (API explorer, pre-filled with a sandbox-only key; loopback host names only, see reference.allowedHosts): ${started.baseUrl}/sandbox\n` +
          `\nThe variables harness.config.yaml reads (eval "$(grep '^export HARNESS_' <this output>)"):\n${banner.env}\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      // close() abandons pending deliveries and retry timers and aborts requests in flight; a DNS lookup of an
      // allow-listed name cannot be cancelled, so the process is not kept waiting for one (exit within 2 s).
      setTimeout(() => process.exit(process.exitCode ?? 0), 1500).unref();
      await started.close();
    });
}

/** The --jwt-key value (or a fresh random one): HS256 needs a key of some length to mean anything. */
function jwtKeyOf(given: string | undefined): string {
  if (given === undefined || given === '') return randomBytes(32).toString('base64url');
  if (given.length < 16) throw new UsageError(`--jwt-key (or HARNESS_REFERENCE_JWT_KEY): a signing key of at least 16 characters is needed, got ${given.length}`);
  return given;
}

function referenceOverrides(flags: ServeFlags): Record<string, unknown> {
  const rateLimit = pick({
    algorithm: flags.algorithm,
    quota: flags.quota,
    windowSeconds: flags.window,
    refillPerSecond: flags.refill,
    anonymousQuota: flags.anonymousQuota,
  });
  const tokens = pick({ jwtTtlSeconds: flags.jwtTtl, accessTokenTtlSeconds: flags.accessTokenTtl, codeTtlSeconds: flags.codeTtl });
  return pick({
    port: flags.port,
    host: flags.host,
    loadQuota: flags.loadQuota,
    injectLatencyMs: flags.injectLatency,
    ...(Object.keys(rateLimit).length ? { rateLimit } : {}),
    ...(Object.keys(tokens).length ? { tokens } : {}),
    ...(flags.loginAttempts !== undefined ? { loginThrottle: { attempts: flags.loginAttempts } } : {}),
  });
}

function pick(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
