import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectSecrets, configFromObject, defaultConfig, loadConfig } from '../../../src/config/index.ts';

const file = fileURLToPath(new URL('../../fixtures/configs/good/credentials.yaml', import.meta.url));

describe('collectSecrets', () => {
  it('lists every secret once, and no identifiers', () => {
    expect(collectSecrets(loadConfig(file, { env: {} }))).toEqual([
      'key-full',
      'key-restricted',
      'key-second',
      'pass-word',
      'client-secret-1',
      'auth-code',
      'client-secret-2',
      'other-account-key',
      'other-pass',
      'ref-key',
      'ref-pass',
      'ref-client-secret',
      'ref-other-key',
      'ref-other-pass',
    ]);
  });

  it('is empty for the defaults', () => {
    expect(collectSecrets(defaultConfig())).toEqual([]);
  });

  it('skips empty strings even in an unnormalised config', () => {
    const config = defaultConfig();
    config.credentials.apiKey = '';
    config.credentials.loadKey = 'k';
    expect(collectSecrets(config)).toEqual(['k']);
  });

  it('the loader drops empty credentials and keeps the rest', () => {
    const config = loadConfig(file, { env: {} });
    expect(config.reference.credentials && 'restrictedKey' in config.reference.credentials).toBe(false);
    expect(config.reference.credentials?.apiKey).toBe('ref-key');
  });

  it('credentials.jwtSigning: its key is a secret; without a key the section is dropped, with one alg defaults to HS256', () => {
    const withKey = loadConfig(file, { env: {} });
    expect(withKey.credentials.jwtSigning).toBeUndefined();
    const config = configFromObject({ credentials: { jwtSigning: { key: 'shared-jwt-key', audience: 'api' } } });
    expect(config.credentials.jwtSigning).toEqual({ alg: 'HS256', key: 'shared-jwt-key', audience: 'api' });
    expect(collectSecrets(config)).toContain('shared-jwt-key');
    expect(configFromObject({ credentials: { jwtSigning: { alg: 'HS256', key: '' } } }).credentials.jwtSigning).toBeUndefined();
  });
});
