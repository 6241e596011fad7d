/**
 * Pagination: what the list does with a cursor it never issued and with a page size out of range.
 *
 * Status decision: PROFILE.md says 400 for both. The PROFILE checks accept any status of
 * `api.rejectedStatus` (default [400, 422]) — the harness's one notion of "the request was rejected", which a
 * config makes exact with `rejectedStatus: [400]` — so a target that answers 422 is described, not failed.
 */
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { listMessages } from '../../src/conformance/operations.ts';
import { requiresCredential } from '../../src/conformance/preconditions.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { seedingApplies, requireSeed } from '../lib/message-seed.ts';

interface Probe {
  what: string;
  res: HttpResponse;
}

interface CursorProbes {
  probes: Probe[];
  /**
   * False when an issued cursor, sent as api.query.cursor, brings back the first page again: the target does not
   * read the cursor under that name (a PROFILE choice the config does not describe), so what it does with a
   * garbled one says nothing about cursors.
   */
  cursorHonored: boolean;
  /** The ids of the page that came back again, when the cursor was not honored. */
  samePage: unknown[];
}

type ListBody = { data?: Array<{ id?: unknown }>; pagination?: { next?: unknown } };

/** Cursors the service never issued; sent once and shared by both cursor checks. */
function cursorProbes(ctx: CheckContext): Promise<CursorProbes> {
  return ctx.memo('pagination.cursor-probes', async () => {
    const filter = seedingApplies(ctx) ? await requireSeed(ctx).then((s) => ({ from: s.from }), () => ({})) : {};
    // Two items a page: a cursor the target ignores brings back the same page, while one that starts at the last
    // item it pointed past (inclusive) brings back a page that begins with that item — read, merely inclusive.
    const first = await listMessages(ctx, { ...filter, limit: 2 });
    const real = first.json<ListBody>()?.pagination?.next;
    let cursorHonored = true;
    let samePage: unknown[] = [];
    if (typeof real === 'string') {
      const second = await listMessages(ctx, { ...filter, limit: 2, cursor: real });
      const idsOf = (res: typeof first) => (res.json<ListBody>()?.data ?? []).map((item) => item?.id);
      const firstIds = idsOf(first);
      cursorHonored = second.status < 200 || second.status > 299 || firstIds.length === 0 || JSON.stringify(idsOf(second)) !== JSON.stringify(firstIds);
      if (!cursorHonored) samePage = firstIds;
    }
    const forgedPayload = Buffer.from(JSON.stringify([0, 'msg_forged']), 'utf8').toString('base64url');
    const cursors: Array<[string, string]> = [
      ['plainly garbled text', `garbled-${Math.random().toString(36).slice(2)}!*`],
      ['a forged cursor (a made-up position with a made-up signature)', `${forgedPayload}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`],
    ];
    if (typeof real === 'string' && real.length > 4) {
      const i = Math.floor(real.length / 2);
      const flipped = real[i] === 'A' ? 'B' : 'A';
      cursors.push(['an issued cursor with one character changed', `${real.slice(0, i)}${flipped}${real.slice(i + 1)}`]);
      cursors.push(['an issued cursor cut short', real.slice(0, -3)]);
    }
    const probes: Probe[] = [];
    for (const [what, cursor] of cursors) probes.push({ what, res: await listMessages(ctx, { ...filter, cursor }) });
    return { probes, cursorHonored, samePage };
  });
}

export const garbledCursorClientError = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.cursor.garbled-not-5xx',
    suite: 'pagination',
    title: 'A cursor the service never issued is a client error: garbled text gets a 4xx, and no forged cursor gets a 5xx',
    level: 'SHOULD',
    specRef: 'RFC 9110 §15.5 (client errors are 4xx) and §15.6 (5xx means the server failed)',
    clauses: ['§4.list'],
    async run(ctx) {
      const { probes, cursorHonored, samePage } = await cursorProbes(ctx);
      // Never a 5xx holds whatever the parameter is called; the 4xx demand only where the target reads the cursor.
      const bad = probes.filter((p, i) => p.res.status >= 500 || (cursorHonored && i === 0 && (p.res.status < 400 || p.res.status > 499)));
      if (bad.length > 0) {
        fail(`a cursor the service never issued must be answered with a 4xx: ${bad.map((p) => `${p.what} → ${p.res.status}`).join('; ')}`,
          { expected: '4xx', actual: bad.map((p) => ({ cursor: p.what, status: p.res.status })) },
          bad.map((p) => p.res.exchange));
      }
      if (!cursorHonored) skip(`no 5xx, but an issued cursor sent as "${ctx.config.api.query.cursor}" brought back exactly the first page again (ids ${samePage.map((id) => JSON.stringify(id)).join(', ')}), so whether a garbled one should get a 4xx cannot be told from a cursor that changed nothing (api.query.cursor); pagination.walk.next-leads-to-next-page reports it`);
    },
  }),
);

export const garbledCursorRejected = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.cursor.garbled-rejected',
    suite: 'pagination',
    title: 'A garbled, forged, altered or cut cursor is rejected (400; api.rejectedStatus)',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("a cursor that was not issued by the service: 400"); api.rejectedStatus',
    clauses: ['§4.list'],
    async run(ctx) {
      const { probes } = await cursorProbes(ctx);
      const wanted = ctx.config.api.rejectedStatus;
      const bad = probes.filter((p) => !wanted.includes(p.res.status));
      if (bad.length > 0) {
        fail(`expected ${wanted.join(' or ')} for a cursor the service never issued, got: ${bad.map((p) => `${p.what} → ${p.res.status}`).join('; ')}`,
          { expected: wanted, actual: bad.map((p) => ({ cursor: p.what, status: p.res.status })) },
          bad.map((p) => p.res.exchange));
      }
    },
  }),
);

export const limitOutOfRangeRejected = requiresCredential('apiKey')(
  defineCheck({
    id: 'pagination.limit.out-of-range-rejected',
    suite: 'pagination',
    title: 'A limit of 0, -1, maxLimit + 1 or "abc" is rejected (400; api.rejectedStatus)',
    level: 'PROFILE',
    specRef: 'PROFILE Messages ("limit (default 20, 1–100; outside that: 400)"); api.pagination.maxLimit, api.rejectedStatus',
    clauses: ['§4.list'],
    owasp: ['API4:2023'],
    async run(ctx) {
      const wanted = ctx.config.api.rejectedStatus;
      const limits = ['0', '-1', String(ctx.config.api.pagination.maxLimit + 1), 'abc'];
      const bad: Array<{ limit: string; status: number; res: HttpResponse }> = [];
      for (const limit of limits) {
        const res = await listMessages(ctx, { limit });
        if (!wanted.includes(res.status)) bad.push({ limit, status: res.status, res });
      }
      if (bad.length > 0) {
        fail(`expected ${wanted.join(' or ')} for a limit out of range, got: ${bad.map((b) => `limit=${b.limit} → ${b.status}`).join('; ')}`,
          { expected: wanted, actual: bad.map(({ limit, status }) => ({ limit, status })) });
      }
    },
  }),
);
