/**
 * Seeding the message list through the sandbox (PROFILE Messages, "Sandbox"): `conformance.seedCount` messages
 * from a sender number unique to this run, so walks filtered by `from` see exactly this run's seeds, plus one
 * decoy from another unique sender (so a `from` filter that is ignored shows). Seeds carry explicit past
 * timestamps one second apart, every fifth sharing its predecessor's, so the (timestamp, id) tie-break is
 * exercised. Seeding is memoised: every pagination check shares one seed.
 */
import { randomInt } from 'node:crypto';
import { skip } from '../../src/conformance/outcomes.ts';
import type { CheckContext } from '../../src/conformance/context.ts';
import { whatIs } from '../../src/conformance/observed.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import type { Exchange } from '../../src/http/exchange.ts';

export interface SeededMessage {
  id: string;
  from: string;
  /** As the target answered it (the listed message's timestamp). */
  timestamp: string;
}

export interface Seed {
  from: string;
  messages: SeededMessage[];
  decoy: SeededMessage;
}

/** Seeding did not work: the sandbox refused, or did not answer the listed message. */
export class SeedError extends Error {
  constructor(
    message: string,
    readonly exchange?: Exchange,
  ) {
    super(message);
    this.name = 'SeedError';
  }
}

/** A sender number no other run uses: digits only with a country code (PROFILE `^[1-9][0-9]{6,14}$`). */
export function uniqueSender(): string {
  return `1555${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

export function postInbound(ctx: CheckContext, body: Record<string, unknown>): Promise<HttpResponse> {
  return ctx.http.request({ method: 'POST', path: ctx.path('sandboxInbound'), json: body, bearer: ctx.credentials.apiKey });
}

/** Posts one inbound message; returns it as listed, or throws SeedError. */
export async function seedOne(ctx: CheckContext, body: { from: string; text: string; timestamp?: string }): Promise<SeededMessage> {
  const res = await postInbound(ctx, body);
  if (res.status < 200 || res.status > 299) {
    throw new SeedError(`the sandbox (POST ${ctx.path('sandboxInbound')}) answered ${res.status} to a seed message`, res.exchange);
  }
  const listed = res.json<Record<string, unknown>>();
  if (!listed || typeof listed !== 'object' || typeof listed.id !== 'string' || typeof listed.timestamp !== 'string') {
    const seen = listed && typeof listed === 'object' ? `its id is ${whatIs(listed.id)} and its timestamp ${whatIs(listed.timestamp)}` : 'its body is not a JSON object';
    throw new SeedError(`the sandbox answered ${res.status}, but not with the listed message ({id, from, text, timestamp} with a string id and timestamp): ${seen}`, res.exchange);
  }
  return { id: listed.id, from: body.from, timestamp: listed.timestamp };
}

/** Seeds `count` messages from `from`, one second apart from `baseMs`, every fifth sharing a timestamp. */
export async function seedSeries(ctx: CheckContext, from: string, count: number, baseMs: number, tag: string): Promise<SeededMessage[]> {
  const out: SeededMessage[] = new Array(count);
  const timeOf = (i: number): number => baseMs + (i % 5 === 4 ? i - 1 : i) * 1000;
  const CONCURRENCY = 5;
  for (let start = 0; start < count; start += CONCURRENCY) {
    const batch = [];
    for (let i = start; i < Math.min(count, start + CONCURRENCY); i++) {
      const body = { from, text: `${tag} ${i + 1} of ${count}`, timestamp: new Date(timeOf(i)).toISOString() };
      batch.push(seedOne(ctx, body).then((m) => (out[i] = m)));
    }
    await Promise.all(batch);
  }
  return out;
}

/** A past second, a random hour or two ago, so seeds of two runs rarely share an instant. */
export function pastBase(): number {
  const ms = Date.now() - 2 * 3600_000 - randomInt(0, 3600) * 1000;
  return Math.floor(ms / 1000) * 1000;
}

/** Seeding applies: the target has the sandbox, seeds are wanted, and the API key is configured. */
export function seedingApplies(ctx: CheckContext): boolean {
  const { conformance } = ctx.config;
  return conformance.sandbox && conformance.profile.sandbox && conformance.seedCount > 0 && Boolean(ctx.credentials.apiKey);
}

/** The run's shared seed (memoised). Rejects with SeedError when seeding fails. */
export function runSeed(ctx: CheckContext): Promise<Seed> {
  return ctx.memo('pagination.seed', async () => {
    const from = uniqueSender();
    const base = pastBase();
    const messages = await seedSeries(ctx, from, ctx.config.conformance.seedCount, base, 'pagination seed');
    const decoy = await seedOne(ctx, { from: uniqueSender(), text: 'pagination decoy', timestamp: new Date(base + 500).toISOString() });
    return { from, messages, decoy };
  });
}

/** The shared seed, or a skip naming why there is none. */
export async function requireSeed(ctx: CheckContext): Promise<Seed> {
  if (ctx.config.conformance.seedCount < 2) skip(`needs at least 2 seeded messages, but conformance.seedCount is ${ctx.config.conformance.seedCount}`);
  return runSeed(ctx).catch((err: Error) => skip(`needs seeded messages, but seeding failed: ${err.message}`));
}
