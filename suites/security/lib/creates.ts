/**
 * Every create of the API as the mass-assignment checks send it (OWASP API3:2023): a valid body plus privileged
 * fields a server sets itself (`id`, `status`, `created_at`, `recipients_count`, an owner) and one unknown field,
 * each with a value no server would choose, so a value seen again in an answer or a later read was taken over.
 */
import { randomBytes } from 'node:crypto';
import type { Operation } from '../../../src/config/types.ts';
import type { CheckContext } from '../../../src/conformance/context.ts';
import { listMessages, textMessage } from '../../../src/conformance/operations.ts';
import { campaignBody, getCampaign } from '../../lib/campaign-ops.ts';
import { randomPhone } from '../../lib/webhook-session.ts';
import { PROBE_EVENTS, undo } from './registration.ts';

export const ASSIGNED_AT = '2001-02-03T04:05:06Z';
const OWNER = 'acct_harness_assigned';

export interface CreateCase {
  operation: Operation;
  /** The request schema (schemas/api base name, or the target's replacement under api.schemas). */
  schema: string;
  /** Why this create is not tried against this target, or undefined. */
  unavailable(ctx: CheckContext): string | undefined;
  body(ctx: CheckContext): Record<string, unknown>;
  /** Privileged and unknown fields, added to the body. */
  assigned(): Record<string, unknown>;
  /** A later read of what was created (undefined: the API has no read of it); the object found, if any. */
  read?(ctx: CheckContext, id: string): Promise<Record<string, unknown> | undefined>;
  /** Undoes the create where the API can (a webhook registration is deleted at once). */
  undo?(ctx: CheckContext, id: string | undefined): Promise<void>;
}

function marker(prefix: string): string {
  return `${prefix}_harness_assigned_${randomBytes(6).toString('hex')}`;
}

function common(prefix: string): Record<string, unknown> {
  return { id: marker(prefix), created_at: ASSIGNED_AT, account_id: OWNER, owner: OWNER, harness_unknown_field: 'harness-assigned' };
}

/** A URL a target may accept for a registration that is deleted at once: the configured public URL, or loopback. */
export function probeWebhookUrl(ctx: CheckContext): string {
  return ctx.config.webhooks.publicUrl ?? 'http://127.0.0.1:9/harness-probe';
}

async function listedMessage(ctx: CheckContext, id: string): Promise<Record<string, unknown> | undefined> {
  const res = await listMessages(ctx, { limit: ctx.config.api.pagination.maxLimit });
  const data = res.json<{ data?: unknown }>()?.data;
  return Array.isArray(data) ? (data as Array<Record<string, unknown>>).find((item) => item?.id === id) : undefined;
}

export const CREATE_CASES: readonly CreateCase[] = [
  {
    operation: 'sendMessage',
    schema: 'send-message-request',
    unavailable: (ctx) => (ctx.credentials.apiKey ? undefined : 'no credentials.apiKey'),
    body: () => textMessage(randomPhone()),
    assigned: () => ({ ...common('msg'), status: 'read' }),
  },
  {
    operation: 'createCampaign',
    schema: 'campaign-request',
    unavailable: (ctx) => (!ctx.config.conformance.profile.campaigns ? 'PROFILE area "campaigns" is off' : ctx.credentials.apiKey ? undefined : 'no credentials.apiKey'),
    body: () => campaignBody(1),
    assigned: () => ({ ...common('cmp'), status: 'sent', recipients_count: 9999 }),
    async read(ctx, id) {
      const res = await getCampaign(ctx, id);
      return res.status >= 200 && res.status < 300 ? (res.json<Record<string, unknown>>() ?? undefined) : undefined;
    },
  },
  {
    operation: 'createWebhook',
    schema: 'webhook-request',
    unavailable: (ctx) => (!ctx.config.conformance.profile.webhooks ? 'PROFILE area "webhooks" is off' : ctx.config.webhooks.preRegistered ? 'webhooks.preRegistered is set' : ctx.credentials.apiKey ? undefined : 'no credentials.apiKey'),
    body: (ctx) => ({ url: probeWebhookUrl(ctx), events: [...PROBE_EVENTS] }),
    assigned: () => common('wh'),
    async read(ctx, id) {
      const res = await ctx.http.request({ method: 'GET', path: ctx.path('listWebhooks'), bearer: ctx.credentials.apiKey });
      const data = res.json<{ data?: unknown }>()?.data;
      return Array.isArray(data) ? (data as Array<Record<string, unknown>>).find((item) => item?.id === id) : undefined;
    },
    async undo(ctx, id) {
      await undo(ctx, id);
    },
  },
  {
    operation: 'sandboxInbound',
    schema: 'sandbox-inbound-request',
    unavailable: (ctx) => (!ctx.config.conformance.sandbox || !ctx.config.conformance.profile.sandbox ? 'the target has no sandbox' : ctx.credentials.apiKey ? undefined : 'no credentials.apiKey'),
    body: () => ({ from: randomPhone(), text: `mass assignment probe ${randomBytes(4).toString('hex')}` }),
    assigned: () => ({ ...common('msg'), status: 'read' }),
    read: listedMessage,
  },
];

/** Sends the create with the assigned fields; a webhook accepted is read and deleted before this returns. */
export async function sendCreate(ctx: CheckContext, c: CreateCase, assigned: Record<string, unknown>) {
  const response = await ctx.http.request({ method: 'POST', path: ctx.path(c.operation), json: { ...c.body(ctx), ...assigned }, bearer: ctx.credentials.apiKey });
  const accepted = response.status >= 200 && response.status < 300;
  const answer = accepted ? (response.json<Record<string, unknown>>() ?? undefined) : undefined;
  if (answer && typeof answer.secret === 'string') ctx.secrets.add(answer.secret);
  const id = typeof answer?.id === 'string' ? answer.id : undefined;
  let read: Record<string, unknown> | undefined;
  try {
    if (accepted && c.read && id) read = await c.read(ctx, id);
  } finally {
    if (accepted) await c.undo?.(ctx, id);
  }
  return { response, accepted, answer, read };
}

/** The assigned fields `object` carries with the value sent. */
export function takenOver(object: Record<string, unknown> | undefined, assigned: Record<string, unknown>): string[] {
  if (!object) return [];
  return Object.entries(assigned).filter(([field, value]) => JSON.stringify(object[field]) === JSON.stringify(value)).map(([field]) => field);
}
