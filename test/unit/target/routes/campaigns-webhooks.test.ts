import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv, schemaId } from '../../../../src/schemas/registry.ts';
import { buildApp, type BuiltApp } from '../../../../src/target/index.ts';
import { bearer, fakeClock } from '../../../helpers/reference-target.ts';

const ajv = createAjv();
const isCampaign = ajv.getSchema(schemaId('campaign-response'))!;
const isWebhook = ajv.getSchema(schemaId('webhook'))!;
const isWebhookList = ajv.getSchema(schemaId('webhook-list'))!;

const clock = fakeClock(Date.parse('2030-06-01T12:00:00.000Z'));
const CAMPAIGN = { name: 'Spring', subject: 'Hello', content: '<p>Hi</p>', recipients: ['a@example.com', 'b@example.com'] };

/** Builds the app on the fake clock before the block's tests and closes it after them; the fields are set by then. */
function useApp(): { target: BuiltApp; auth: { authorization: string } } {
  const ctx = {} as { target: BuiltApp; auth: { authorization: string } };
  beforeAll(async () => {
    ctx.target = await buildApp({ now: clock.now });
    ctx.auth = bearer(ctx.target.credentials.apiKeys.full);
  });
  afterAll(() => ctx.target.app.close());
  return ctx;
}

describe('email campaigns', () => {
  const ctx = useApp();

  const create = (payload: object, headers = ctx.auth) => ctx.target.app.inject({ method: 'POST', url: '/v1/email/campaigns', headers, payload });

  it('creates a draft without schedule and reads it back', async () => {
    const res = await create(CAMPAIGN);
    expect(res.statusCode).toBe(201);
    expect(isCampaign(res.json())).toBe(true);
    const body = res.json() as { id: string };
    expect(body).toMatchObject({ status: 'draft', schedule: null, recipients_count: 2, created_at: '2030-06-01T12:00:00.000Z' });
    expect(res.headers.location).toBe(`/v1/email/campaigns/${body.id}`);
    const read = await ctx.target.app.inject({ method: 'GET', url: `/v1/email/campaigns/${body.id}`, headers: ctx.auth });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(body);
  });

  it('schedules a campaign in the future and deduplicates recipients', async () => {
    const res = await create({ ...CAMPAIGN, recipients: ['a@example.com', 'A@Example.com', 'b@example.com'], schedule: '2030-06-02T09:00:00Z' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'scheduled', schedule: '2030-06-02T09:00:00.000Z', recipients_count: 2 });
  });

  it.each([
    ['past schedule', { ...CAMPAIGN, schedule: '2030-06-01T11:59:59Z' }, '/schedule'],
    ['schedule without Z', { ...CAMPAIGN, schedule: '2030-06-02T09:00:00' }, '/schedule'],
    ['no recipients', { ...CAMPAIGN, recipients: [] }, '/recipients'],
    ['invalid address', { ...CAMPAIGN, recipients: ['not-an-address'] }, '/recipients/0'],
    ['too many recipients', { ...CAMPAIGN, recipients: Array.from({ length: 10_001 }, (_, i) => `u${i}@example.com`) }, '/recipients'],
    ['empty name', { ...CAMPAIGN, name: '' }, '/name'],
    ['long name', { ...CAMPAIGN, name: 'n'.repeat(201) }, '/name'],
    ['long subject', { ...CAMPAIGN, subject: 's'.repeat(999) }, '/subject'],
    ['missing content', { name: 'n', subject: 's', recipients: ['a@example.com'] }, '/content'],
    ['content over 1 MiB of UTF-8', { ...CAMPAIGN, content: 'é'.repeat(600_000) }, '/content'],
  ])('rejects %s with 400 at %s', async (_name, body, path) => {
    const res = await create(body);
    expect(res.statusCode).toBe(400);
    expect((res.json() as { errors: { path: string }[] }).errors.map((e) => e.path)).toContain(path);
  });

  it('accepts 10000 recipients', async () => {
    const res = await create({ ...CAMPAIGN, recipients: Array.from({ length: 10_000 }, (_, i) => `u${i}@example.com`) });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ recipients_count: 10_000 });
  });

  it('answers 404 for an unknown campaign and 401 without credentials', async () => {
    const res = await ctx.target.app.inject({ method: 'GET', url: '/v1/email/campaigns/cmp_nope', headers: ctx.auth });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
    expect((await create(CAMPAIGN, {} as typeof ctx.auth)).statusCode).toBe(401);
  });
});

describe('webhook management', () => {
  const ctx = useApp();

  it('registers, lists and deletes webhooks', async () => {
    const created = await ctx.target.app.inject({ method: 'POST', url: '/v1/webhooks', headers: ctx.auth, payload: { url: 'https://hooks.example.invalid/in', events: ['message.received'] } });
    expect(created.statusCode).toBe(201);
    expect(isWebhook(created.json())).toBe(true);
    const hook = created.json() as { id: string; secret: string };
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const own = await ctx.target.app.inject({ method: 'POST', url: '/v1/webhooks', headers: ctx.auth, payload: { url: 'http://127.0.0.1:9/x', events: ['message.status', 'message.received'], secret: 'my-secret-123' } });
    expect(own.json()).toMatchObject({ secret: 'my-secret-123' });

    const list = await ctx.target.app.inject({ method: 'GET', url: '/v1/webhooks', headers: ctx.auth });
    expect(list.statusCode).toBe(200);
    expect(isWebhookList(list.json())).toBe(true);
    expect((list.json() as { data: unknown[] }).data).toHaveLength(2);
    // The secret is shown once, in the create answer: the list names each webhook without it.
    for (const item of (list.json() as { data: Array<Record<string, unknown>> }).data) expect(Object.keys(item).sort()).toEqual(['created_at', 'events', 'id', 'url']);
    expect(list.body).not.toContain('my-secret-123');
    expect(list.body).not.toContain(hook.secret);

    const del = await ctx.target.app.inject({ method: 'DELETE', url: `/v1/webhooks/${hook.id}`, headers: ctx.auth });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    const again = await ctx.target.app.inject({ method: 'DELETE', url: `/v1/webhooks/${hook.id}`, headers: ctx.auth });
    expect(again.statusCode).toBe(404);
  });

  it.each([
    ['no events', { url: 'https://a.example/x', events: [] }],
    ['unknown event', { url: 'https://a.example/x', events: ['message.deleted'] }],
    ['duplicate events', { url: 'https://a.example/x', events: ['message.status', 'message.status'] }],
    ['non-http url', { url: 'ftp://a.example/x', events: ['message.status'] }],
    ['missing url', { events: ['message.status'] }],
  ])('rejects %s with 400', async (_name, payload) => {
    const res = await ctx.target.app.inject({ method: 'POST', url: '/v1/webhooks', headers: ctx.auth, payload });
    expect(res.statusCode).toBe(400);
  });
});
