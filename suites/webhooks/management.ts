/**
 * Webhook management (PROFILE Webhooks): create answers the registration with its secret, list shows it, delete removes
 * it, and a delete of an id never registered is a 404.
 */
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/conformance/check.ts';
import { fail, skip } from '../../src/conformance/outcomes.ts';
import { expectStatus, expectSuccessStatus, jsonObject } from '../../src/conformance/expect.ts';
import { guarded, requiresCredential, requiresProfile } from '../../src/conformance/preconditions.ts';
import { deletion } from './lib/deletion-scenario.ts';
import { requiresManagement, webhookCheck } from './lib/preconditions.ts';
import { EVENT_TYPES, webhookSession } from '../lib/webhook-session.ts';

export const createRegistersWebhook = guarded(
  defineCheck({
    id: 'webhooks.management.create',
    suite: 'webhooks',
    title: 'Registering a webhook answers the configured create status (201) with id, url, events and a generated secret',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks (POST /v1/webhooks {url, events, secret?} → 201 {id, url, events, secret, created_at}); api.successStatus.createWebhook',
    clauses: ['§6'],
    async run(ctx) {
      const session = await webhookSession(ctx);
      const res = session.createResponse;
      if (!res) skip('no registration request was made');
      expectSuccessStatus(ctx, res, 'createWebhook', 'register a webhook');
      const body = jsonObject(res, 'registration answer');
      ctx.schemas.expect('webhook', body, 'registration answer');
      if (body.url !== session.receiver.url) fail(`registration answer: "url" must be the registered URL`, { expected: session.receiver.url, actual: body.url });
      const events = Array.isArray(body.events) ? [...(body.events as unknown[])].sort() : body.events;
      if (JSON.stringify(events) !== JSON.stringify([...EVENT_TYPES].sort())) fail('registration answer: "events" must be the registered events', { expected: EVENT_TYPES, actual: body.events });
    },
  }),
  requiresProfile('webhooks'),
  requiresManagement,
  requiresCredential('apiKey'),
);

export const listShowsWebhook = guarded(
  defineCheck({
    id: 'webhooks.management.list-contains',
    suite: 'webhooks',
    title: 'The webhook list contains the registered webhook with its url',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks (GET /v1/webhooks); api.successStatus.listWebhooks',
    clauses: ['§6'],
    async run(ctx) {
      const session = await webhookSession(ctx);
      const id = session.hook?.id;
      if (!id) skip(`no registered webhook id to look for (${session.problem ?? 'the registration answer had no id'})`);
      const res = await ctx.http.request({ method: 'GET', path: ctx.path('listWebhooks'), bearer: ctx.credentials.apiKey });
      expectSuccessStatus(ctx, res, 'listWebhooks', 'list webhooks');
      const body = jsonObject(res, 'webhook list');
      ctx.schemas.expect('webhook-list', body, 'webhook list');
      const items = (body.data as Array<Record<string, unknown>>).filter((item) => item.id === id);
      if (items.length !== 1) fail(`webhook list: expected the registered webhook ${id} once, found it ${items.length} time(s)`, { expected: id, actual: items.length });
      if (items[0]!.url !== session.receiver.url) fail('webhook list: the registered webhook shows another url', { expected: session.receiver.url, actual: items[0]!.url });
    },
  }),
  requiresProfile('webhooks'),
  requiresManagement,
  requiresCredential('apiKey'),
);

export const deleteRemovesWebhook = guarded(
  defineCheck({
    id: 'webhooks.management.delete',
    suite: 'webhooks',
    title: 'Deleting the webhook answers the configured delete status (204) and removes it from the list',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks (DELETE /v1/webhooks/{id} → 204); PROFILE General ("a delete 204"); api.successStatus.deleteWebhook',
    clauses: ['§6'],
    async run(ctx) {
      const done = await deletion(ctx);
      if (done.reason) skip(done.reason);
      expectSuccessStatus(ctx, done.response!, 'deleteWebhook', 'delete the webhook');
      const res = await ctx.http.request({ method: 'GET', path: ctx.path('listWebhooks'), bearer: ctx.credentials.apiKey });
      const body = jsonObject(res, 'webhook list after the delete');
      const items = Array.isArray(body.data) ? (body.data as Array<Record<string, unknown>>) : [];
      if (items.some((item) => item.id === done.id)) fail(`webhook list: the deleted webhook ${done.id} is still listed`, { expected: 'absent', actual: done.id });
    },
  }),
  requiresProfile('webhooks'),
  requiresManagement,
  requiresCredential('apiKey'),
);

export const deleteUnknownNotFound = webhookCheck(
  defineCheck({
    id: 'webhooks.management.delete-unknown-404',
    suite: 'webhooks',
    title: 'Deleting a webhook id that was never registered answers 404',
    level: 'PROFILE',
    specRef: 'PROFILE Webhooks (DELETE /v1/webhooks/{id}); PROFILE General (`not_found`; unknown resources 404, as for campaigns)',
    clauses: ['§6'],
    async run(ctx) {
      const id = `wh_harness_unknown_${randomBytes(8).toString('hex')}`;
      const res = await ctx.http.request({ method: 'DELETE', path: ctx.path('deleteWebhook', { id }), bearer: ctx.credentials.apiKey });
      expectStatus(res, [404], `delete of the unknown webhook id ${id}`);
    },
  }),
);
