import { describe, expect, it, vi } from 'vitest';
import { parseBearer } from '../../../src/target/auth/bearer.ts';
import { LoginThrottle } from '../../../src/target/auth/login-throttle.ts';
import { credentialBanner } from '../../../src/target/banner.ts';
import { createCredentials } from '../../../src/target/credentials.ts';
import { TargetEventBus } from '../../../src/target/events.ts';
import { CursorCodec } from '../../../src/target/http/cursor.ts';
import { genRequestId } from '../../../src/target/http/request-id.ts';
import { TimerRegistry } from '../../../src/target/timers.ts';
import type { IncomingMessage } from 'node:http';
import { fakeClock } from '../../helpers/reference-target.ts';

describe('parseBearer', () => {
  it.each([
    ['Bearer abc', { kind: 'bearer', token: 'abc' }],
    ['bearer abc', { kind: 'bearer', token: 'abc' }],
    ['BEARER   a.b-c_~+/=', { kind: 'bearer', token: 'a.b-c_~+/=' }],
    ['Basic dXNlcjpwdw==', { kind: 'none' }],
    ['Bearer', { kind: 'malformed' }],
    ['Bearer a b', { kind: 'malformed' }],
    ['', { kind: 'malformed' }],
  ])('%j', (header, expected) => {
    expect(parseBearer(header)).toEqual(expected);
  });

  it('treats an absent header as none', () => {
    expect(parseBearer(undefined)).toEqual({ kind: 'none' });
  });
});

describe('CursorCodec', () => {
  const codec = new CursorCodec();

  it('round-trips a sort key', () => {
    expect(codec.decode(codec.encode({ t: 1234, id: 'msg_1' }, 'acct_a'), 'acct_a')).toEqual({ t: 1234, id: 'msg_1' });
  });

  it("refuses a cursor issued to another account (it would page through that account's list)", () => {
    expect(codec.decode(codec.encode({ t: 1234, id: 'msg_1' }, 'acct_a'), 'acct_b')).toBeNull();
  });

  it('refuses forged, garbled and foreign cursors', () => {
    const good = codec.encode({ t: 1234, id: 'msg_1' }, 'acct_a');
    const [payload] = good.split('.');
    const forged = `${Buffer.from('[9999,"msg_9"]').toString('base64url')}.${good.split('.')[1]}`;
    const lastChar = good.at(-1) === 'A' ? 'B' : 'A';
    for (const bad of [forged, `${payload}.`, 'abc', '', `${good.slice(0, -1)}${lastChar}`, `${good}.x`, new CursorCodec().encode({ t: 1, id: 'x' }, 'acct_a')]) {
      expect(codec.decode(bad, 'acct_a'), bad).toBeNull();
    }
  });
});

describe('LoginThrottle', () => {
  it('throttles after `attempts` failures and says exactly when it ends', () => {
    const clock = fakeClock();
    const throttle = new LoginThrottle(3, 60, clock.now);
    for (let i = 0; i < 3; i++) {
      expect(throttle.check('a@x').throttled).toBe(false);
      throttle.recordFailure('a@x');
      clock.advance(10_000);
    }
    expect(throttle.check('a@x')).toEqual({ throttled: true, retryAfterSeconds: 30 });
    expect(throttle.check('b@x').throttled).toBe(false);
    clock.advance(30_000);
    expect(throttle.check('a@x').throttled).toBe(false);
  });

  it('forgets failures after a successful login', () => {
    const throttle = new LoginThrottle(2, 60, fakeClock().now);
    throttle.recordFailure('a@x');
    throttle.reset('a@x');
    throttle.recordFailure('a@x');
    expect(throttle.check('a@x').throttled).toBe(false);
  });
});

describe('genRequestId', () => {
  const req = (id?: string): IncomingMessage => ({ headers: id === undefined ? {} : { 'x-request-id': id } }) as IncomingMessage;

  it('echoes a sane client id and replaces anything else', () => {
    expect(genRequestId(req('abc-123_X.y:z'))).toBe('abc-123_X.y:z');
    for (const bad of [undefined, '', 'a b', 'x'.repeat(129), '<script>', 'é']) {
      expect(genRequestId(req(bad))).toMatch(/^req_[0-9a-f]{16}$/);
    }
  });
});

describe('TargetEventBus', () => {
  it('delivers to subscribers, isolates throwing ones and unsubscribes', () => {
    const errors: unknown[] = [];
    const bus = new TargetEventBus((err) => errors.push(err));
    const seen: string[] = [];
    bus.on('message.status', () => {
      throw new Error('boom');
    });
    const off = bus.on('message.status', (data) => seen.push(data.status));
    bus.emit('message.status', { id: 'm', status: 'sent', timestamp: '2025-01-01T00:00:00.000Z' }, 'acct_1');
    off();
    bus.emit('message.status', { id: 'm', status: 'read', timestamp: '2025-01-01T00:00:00.000Z' }, 'acct_1');
    expect(seen).toEqual(['sent']);
    expect(errors).toHaveLength(2);
  });
});

describe('TimerRegistry', () => {
  it('runs scheduled callbacks and cancels the rest on clearAll', () => {
    vi.useFakeTimers();
    try {
      const timers = new TimerRegistry();
      const fn = vi.fn();
      timers.schedule(10, fn);
      timers.schedule(1000, fn);
      vi.advanceTimersByTime(20);
      expect(fn).toHaveBeenCalledTimes(1);
      expect(timers.size).toBe(1);
      timers.clearAll();
      vi.advanceTimersByTime(2000);
      expect(fn).toHaveBeenCalledTimes(1);
      timers.schedule(1, fn);
      expect(timers.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('TimerRegistry queues', () => {
  it('runs actions of one delay in order, each at its own due time, across delays', () => {
    vi.useFakeTimers();
    try {
      const timers = new TimerRegistry();
      const seen: string[] = [];
      timers.schedule(100, () => seen.push('a100'));
      vi.advanceTimersByTime(30);
      timers.schedule(100, () => seen.push('b100'));
      timers.schedule(50, () => seen.push('c50'));
      vi.advanceTimersByTime(60); // t=90: c50 was due at 80
      expect(seen).toEqual(['c50']);
      vi.advanceTimersByTime(15); // t=105: a100 due at 100, b100 at 130
      expect(seen).toEqual(['c50', 'a100']);
      expect(timers.size).toBe(1);
      vi.advanceTimersByTime(30);
      expect(seen).toEqual(['c50', 'a100', 'b100']);
      expect(timers.size).toBe(0);
      timers.schedule(100, () => seen.push('d100')); // a drained queue re-arms
      vi.advanceTimersByTime(101);
      expect(seen.at(-1)).toBe('d100');
      timers.clearAll();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('credentials and banner', () => {
  it('are random per start unless fixed', () => {
    const a = createCredentials({});
    const b = createCredentials({ apiKey: 'sk_fixed', login: { email: 'me@x.test', password: 'pw' } });
    expect(a.apiKeys.full).toMatch(/^sk_live_[0-9a-f]{48}$/);
    expect(createCredentials({}).apiKeys.full).not.toBe(a.apiKeys.full);
    expect(b.apiKeys.full).toBe('sk_fixed');
    expect(b.login).toEqual({ email: 'me@x.test', password: 'pw' });
    expect(a.oauth.clientId).not.toBe(a.otherOAuthClient.clientId);
  });

  it('prints one JSON line and an aligned table', () => {
    const creds = createCredentials({});
    const { json, table } = credentialBanner(creds, 'http://127.0.0.1:1234');
    expect(json).not.toContain('\n');
    expect(JSON.parse(json)).toEqual({ event: 'reference-target.listening', baseUrl: 'http://127.0.0.1:1234', credentials: creds });
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+VALUE\s+FOR$/);
    expect(table).toContain(creds.apiKeys.restricted);
    const valueColumn = lines[0]!.indexOf('VALUE');
    for (const line of lines.slice(1)) expect(line[valueColumn - 1]).toBe(' ');
  });
});
