import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig, loadConfig, validateConfigObject, configFromObject } from '../../../src/config/index.ts';
import type { HarnessConfig } from '../../../src/config/types.ts';
import { ConfigError, FileNotFoundError } from '../../../src/errors/harness-errors.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const good = fileURLToPath(new URL('../../fixtures/configs/good/', import.meta.url));
const rootConfig = join(root, 'harness.config.yaml');

function withoutSource(config: unknown): unknown {
  const { source: _source, given: _given, ...rest } = config as HarnessConfig;
  return rest;
}

function issuesOf(run: () => unknown): ConfigError['issues'] {
  try {
    run();
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('what a config states (given)', () => {
  it('lists the options the file and the overrides set, not the defaults', () => {
    const config = configFromObject({ api: { query: { cursor: 'page_token' } }, target: { baseUrl: 'http://127.0.0.1:1' } }, { overrides: { conformance: { suites: ['pagination'] } } });
    expect(config.given).toEqual(['api.query.cursor', 'conformance.suites', 'target.baseUrl']);
    expect(config.api.query.limit).toBe('limit');
    expect(configFromObject({}).given).toBeUndefined();
  });
});

describe('loadConfig: the root harness.config.yaml', () => {
  it('equals defaultConfig() with an empty environment', () => {
    const config = loadConfig(rootConfig, { env: {} });
    expect(withoutSource(config)).toEqual(defaultConfig());
    expect(config.source).toBe(resolve(rootConfig));
  });

  it('takes credentials from the environment', () => {
    const config = loadConfig(rootConfig, { env: { HARNESS_API_KEY: 'k1', HARNESS_LOGIN_EMAIL: 'a@b.c', HARNESS_LOGIN_PASSWORD: 'pw' } });
    expect(config.credentials).toEqual({ apiKey: 'k1', login: { email: 'a@b.c', password: 'pw' } });
  });

  it('keeps an OAuth client given through the environment, with the oauth defaults filled in', () => {
    const env = { HARNESS_OAUTH_CLIENT_ID: 'c', HARNESS_OAUTH_CLIENT_SECRET: 's', HARNESS_OAUTH_REDIRECT_URI: 'http://x/cb' };
    expect(loadConfig(rootConfig, { env }).credentials.oauth).toEqual({
      clientId: 'c', clientSecret: 's', redirectUri: 'http://x/cb', scope: 'messages:send messages:read', consent: 'automated', pkce: true,
    });
  });
});

describe('loadConfig: files', () => {
  it('an empty file, and keys left without a value, mean the defaults', () => {
    expect(withoutSource(loadConfig(join(good, 'empty.yaml'), { env: {} }))).toEqual(defaultConfig());
    expect(withoutSource(loadConfig(join(good, 'sections-left-empty.yaml'), { env: {} }))).toEqual(defaultConfig());
  });

  it('no file: the defaults, without a source', () => {
    const config = loadConfig(undefined, { env: {} });
    expect(config).toEqual(defaultConfig());
    expect(config.source).toBeUndefined();
  });

  it('a missing file is a FileNotFoundError', () => {
    expect(() => loadConfig(join(good, 'nope.yaml'))).toThrow(FileNotFoundError);
    expect(() => loadConfig(join(good, 'nope.yaml'))).toThrow(/nope\.yaml: no such file/);
  });

  it('a directory is a FileNotFoundError that says so', () => {
    expect(() => loadConfig(good)).toThrow(FileNotFoundError);
    expect(() => loadConfig(good)).toThrow(/is a directory, not a file/);
  });
});

describe('loadConfig: ${VAR} interpolation', () => {
  const file = join(good, 'env.yaml');
  const env = { TEST_TARGET_URL: 'https://api.example.com', TEST_API_KEY: 'abc' };

  it('resolves ${X}, ${X:-default}, embedded references and $${', () => {
    const config = loadConfig(file, { env });
    expect(config.target).toEqual({ baseUrl: 'https://api.example.com', timeoutMs: 2500, accounts: 'multiple' });
    expect(config.credentials.apiKey).toBe('abc');
    expect(config.credentials.loadKey).toBe('prefix-abc-suffix');
    expect(config.report.outDir).toBe('literal-${NOT_A_VAR}');
  });

  it('gives plain scalars the type the option wants; quoted ones stay strings', () => {
    const config = loadConfig(file, { env: { ...env, TEST_TIMEOUT_MS: '7000', TEST_SANDBOX: 'true', TEST_RESTRICTED_KEY: '123' } });
    expect(config.target.timeoutMs).toBe(7000);
    expect(config.conformance.sandbox).toBe(true);
    expect(config.credentials.restrictedKey).toBe('123');
  });

  it('uses the default for an empty variable, and drops an empty credential', () => {
    const config = loadConfig(file, { env: { ...env, TEST_TIMEOUT_MS: '' } });
    expect(config.target.timeoutMs).toBe(2500);
    expect('restrictedKey' in config.credentials).toBe(false);
  });

  it('reports every unset variable with its path and line', () => {
    const issues = issuesOf(() => loadConfig(file, { env: {} }));
    expect(issues.map((i) => [i.path, i.line, i.message])).toEqual([
      ['target.baseUrl', 3, 'environment variable TEST_TARGET_URL is not set (write ${TEST_TARGET_URL:-} to make it optional)'],
      ['credentials.apiKey', 6, 'environment variable TEST_API_KEY is not set (write ${TEST_API_KEY:-} to make it optional)'],
      ['credentials.loadKey', 8, 'environment variable TEST_API_KEY is not set (write ${TEST_API_KEY:-} to make it optional)'],
    ]);
  });

  it('a value from the environment is validated like one in the file', () => {
    const issues = issuesOf(() => loadConfig(file, { env: { ...env, TEST_TIMEOUT_MS: 'soon' } }));
    expect(issues).toEqual([{ file: expect.stringContaining('env.yaml'), line: 4, column: 14, path: 'target.timeoutMs', message: 'must be an integer' }]);
  });
});

describe('loadConfig: overrides (command-line flags)', () => {
  const source = { 'target.baseUrl': '--target', 'target.timeoutMs': '--timeout', 'api.rejectedStatus': '--rejected' };

  it('win over the file and the defaults; arrays replace', () => {
    const config = loadConfig(rootConfig, {
      env: {},
      overrides: { target: { baseUrl: 'http://127.0.0.1:8080', timeoutMs: undefined }, api: { rejectedStatus: [422] } },
    });
    expect(config.target).toEqual({ baseUrl: 'http://127.0.0.1:8080', timeoutMs: 10000, accounts: 'multiple' });
    expect(config.api.rejectedStatus).toEqual([422]);
  });

  it('are validated, and their issues name the flag', () => {
    const issues = issuesOf(() =>
      loadConfig(rootConfig, { env: {}, overrides: { target: { baseUrl: 'localhost:8080', timeoutMs: 0 }, api: { rejectedStatus: [400, 42] } }, overrideSource: source }),
    );
    expect(issues.map((i) => new ConfigError([i]).message)).toEqual([
      '--target: must be an http(s) URL',
      '--timeout: must be >= 1',
      '--rejected: must be >= 100',
    ]);
    expect(issues.every((i) => i.file === undefined && i.line === undefined)).toBe(true);
  });

  it('an override without a flag name is named by its path', () => {
    const issues = issuesOf(() => loadConfig(undefined, { env: {}, overrides: { api: { pagination: { order: 'random' as never } } } }));
    expect(new ConfigError(issues).message).toBe('api.pagination.order: must be one of: newest-first, oldest-first');
  });

  it('take part in the cross-option rules', () => {
    const issues = issuesOf(() =>
      loadConfig(rootConfig, { env: {}, overrides: { api: { pagination: { defaultLimit: 500 } } }, overrideSource: { 'api.pagination.defaultLimit': '--page-size' } }),
    );
    expect(new ConfigError(issues).message).toBe('--page-size: must be <= api.pagination.maxLimit (100)');
  });

  it('file issues come first (by line), flag issues after them', () => {
    const issues = issuesOf(() =>
      loadConfig(join(root, 'test/fixtures/configs/broken/wrong-type.yaml'), { env: {}, overrides: { target: { baseUrl: 'x' } }, overrideSource: source }),
    );
    expect(issues.map((i) => i.path)).toEqual(['target.timeoutMs', '--target']);
  });
});

describe('loadConfig: the result', () => {
  it('is deep-frozen: assignment throws', () => {
    const config = loadConfig(rootConfig, { env: {} });
    expect(Object.isFrozen(config.api.paths)).toBe(true);
    expect(() => {
      (config.target as { timeoutMs: number }).timeoutMs = 1;
    }).toThrow(TypeError);
    expect(() => {
      (config.api.rejectedStatus as number[]).push(500);
    }).toThrow(TypeError);
  });

  it('resolves schema file paths against the config file; $ids stay', () => {
    const file = join(good, 'nested/relative-schema.yaml');
    const api = loadConfig(file, { env: {} }).api;
    expect(api.errorSchema).toBe(join(good, 'schemas/my-problem.json'));
    expect(api.schemas).toEqual({
      message: join(good, 'nested/message.json'),
      campaign: 'https://api-harness.example/schemas/api/campaign.json',
      webhook: 'urn:example:webhook',
    });
  });

  it('resolves a schema path given as a flag against the working directory', () => {
    const config = loadConfig(join(good, 'nested/relative-schema.yaml'), { env: {}, overrides: { api: { errorSchema: 'errors.json' } } });
    expect(config.api.errorSchema).toBe(resolve(process.cwd(), 'errors.json'));
  });

  it('derives refillPerSecond for a token bucket', () => {
    const config = configFromObject({ reference: { rateLimit: { algorithm: 'token-bucket', quota: 50, windowSeconds: 10 } } });
    expect(config.reference.rateLimit.refillPerSecond).toBe(5);
    expect(defaultConfig().reference.rateLimit.refillPerSecond).toBeUndefined();
  });

  it('drops an OAuth section that names no client', () => {
    expect(configFromObject({ credentials: { oauth: { scope: 'sandbox', clientId: '' } } }).credentials).toEqual({});
  });
});

describe('validateConfigObject', () => {
  it('returns no issues for the defaults', () => {
    expect(validateConfigObject(defaultConfig())).toEqual([]);
  });

  it('returns issues without positions for a plain object', () => {
    expect(validateConfigObject({ target: { timeout: 1 }, credentials: { login: { email: 'a@b.c' } } }, { file: 'x.json' })).toEqual([
      { file: 'x.json', path: 'target.timeout', message: 'unknown key "timeout"', suggestion: 'timeoutMs' },
    ]);
    expect(validateConfigObject({ credentials: { login: { email: 'a@b.c' } } })).toEqual([
      { path: 'credentials.login.password', message: 'is required when credentials.login.email is set' },
    ]);
  });
});

describe('loadConfig: a file that changes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'harness-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the file each time (no stale cache)', () => {
    const file = join(dir, 'c.yaml');
    writeFileSync(file, 'target:\n  timeoutMs: 1\n');
    expect(loadConfig(file, { env: {} }).target.timeoutMs).toBe(1);
    writeFileSync(file, 'target:\n  timeoutMs: 2\n');
    expect(loadConfig(file, { env: {} }).target.timeoutMs).toBe(2);
  });
});
