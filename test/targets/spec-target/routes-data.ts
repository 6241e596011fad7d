/**
 * Messages, the test inbound, campaigns and webhook management of the spec-only target (SERVICE-SPEC §2, §4, §6).
 * Its choices where the spec is silent:
 *   - send answers 202 Accepted `{id, status: "sent", timestamp}`; `to` is digits with country code (§2.1), 8–15
 *     digits; `text` is the long `{body}` form or the short string form (both shown in the spec), up to 10,000
 *     characters; other types are not shown in the spec, so they are refused; unknown extra fields are ignored;
 *   - the list takes `per_page` (default 25, 1–200) and `page_token`; newest first by (timestamp, id);
 *   - the test inbound (the spec's "sandbox") is POST /v1/test/inbound, answering 200 with the listed message;
 *   - campaigns answer 202 `{id, name, subject, recipients, schedule, status: "scheduled" | "draft", created_at}`;
 *   - webhooks are managed under /v1/hooks.
 */
import { error, isObject, type Answer, type Req } from './http.ts';
import { newId, type ListedMessage, type SpecState } from './state.ts';
import type { Deliveries } from './deliveries.ts';
import { refusedHost } from './hook-hosts.ts';

export const LIST = { sizeParam: 'per_page', cursorParam: 'page_token', defaultSize: 25, maxSize: 200 } as const;
const PHONE = /^[1-9][0-9]{7,14}$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const MAX_TEXT = 10_000;

export function sendMessage(req: Req, state: SpecState, deliveries: Deliveries, numericId = false): Answer {
  const body = isObject(req.body) ? req.body : undefined;
  if (!body) return error(400, 'a JSON object is required');
  if (typeof body['to'] !== 'string' || !PHONE.test(body['to'])) return error(400, 'to must be digits with country code', 'to');
  const type = 'type' in body ? body['type'] : 'text';
  if (type !== 'text') return error(400, `unsupported message type ${JSON.stringify(type)}`, 'type');
  // The long form's {body}, or the short form's plain string (also accepted with type "text": lenient, and legal).
  const text = isObject(body['text']) ? body['text']['body'] : body['text'];
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_TEXT) return error(400, `text must be 1–${MAX_TEXT} characters`, 'text');
  const message = { id: newId('msg_'), to: body['to'], status: 'sent' };
  state.sent.set(message.id, message);
  const steps = body['to'].startsWith('999') ? ['sent', 'failed'] : ['sent', 'delivered', 'read'];
  // Each status 150 ms after the one before it has been published: timers of different delays set at once may fire
  // in either order on a busy event loop, and a message is never read before it is delivered.
  const step = (i: number): void =>
    deliveries.later(i === 0 ? 0 : 150, () => {
      const status = steps[i]!;
      message.status = status;
      const failure = status === 'failed' ? { error: { code: 'unreachable', message: 'the number cannot receive messages' } } : {};
      deliveries.emit('message.status', { id: message.id, status, timestamp: new Date().toISOString(), ...failure });
      if (i + 1 < steps.length) step(i + 1);
    });
  step(0);
  // numeric-id: the answer carries the id as a number (its digits), the send itself works.
  const id = numericId ? Number(message.id.replace(/\D/g, '').slice(0, 12) || '1') : message.id;
  return { status: 202, body: { id, status: 'sent', timestamp: new Date().toISOString() } };
}

/** Cursor = base64url of the last item's (timestamp, id): stable while messages arrive (newer ones sort before). */
export function listMessages(req: Req, state: SpecState, variant: 'endless-next' | 'static-page' | string = 'correct'): Answer {
  const sizeText = req.query.get(LIST.sizeParam);
  const size = sizeText === null ? LIST.defaultSize : Number(sizeText);
  if (!Number.isInteger(size) || size < 1 || size > LIST.maxSize) return error(400, `${LIST.sizeParam} must be 1–${LIST.maxSize}`, LIST.sizeParam);
  let items: ListedMessage[] = state.messages;
  const from = req.query.get('from');
  if (from !== null) items = items.filter((m) => m.from === from);
  const since = req.query.get('since');
  const until = req.query.get('until');
  for (const [name, value] of [['since', since], ['until', until]] as const) if (value !== null && Number.isNaN(Date.parse(value))) return error(400, `${name} must be an ISO 8601 date-time`, name);
  if (since !== null) items = items.filter((m) => Date.parse(m.timestamp) >= Date.parse(since));
  if (until !== null) items = items.filter((m) => Date.parse(m.timestamp) < Date.parse(until));
  // static-page reads no cursor at all (a mock serving one example page).
  const cursor = variant === 'static-page' ? null : req.query.get(LIST.cursorParam);
  if (cursor !== null) {
    const after = decodeCursor(cursor);
    if (!after) return error(400, `${LIST.cursorParam} was not issued by this service`, LIST.cursorParam);
    // inclusive-cursor: the page after starts AT the item the cursor names, not past it.
    const past = (m: ListedMessage) => m.timestamp < after.t || (m.timestamp === after.t && (variant === 'inclusive-cursor' ? m.id <= after.i : m.id < after.i));
    items = items.filter(past);
  }
  const page = items.slice(0, size);
  const last = page.at(-1);
  const cursorOf = (m: ListedMessage): string => Buffer.from(JSON.stringify({ t: m.timestamp, i: m.id })).toString('base64url');
  let next = items.length > size && last ? cursorOf(last) : null;
  // endless-next: a cursor after every page, the empty one past the end included (it hands its own cursor back).
  if (variant === 'endless-next') next = last ? cursorOf(last) : cursor;
  if (variant === 'static-page' && last) next = cursorOf(last);
  return { status: 200, body: { data: page, pagination: { next, limit: size } } };
}

function decodeCursor(cursor: string): { t: string; i: string } | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { t?: unknown; i?: unknown };
    return typeof value.t === 'string' && typeof value.i === 'string' ? { t: value.t, i: value.i } : undefined;
  } catch {
    return undefined;
  }
}

export function testInbound(req: Req, state: SpecState, deliveries: Deliveries): Answer {
  const body = isObject(req.body) ? req.body : {};
  if (typeof body['from'] !== 'string' || !PHONE.test(body['from'])) return error(400, 'from must be digits with country code', 'from');
  if (typeof body['text'] !== 'string' || body['text'].length === 0) return error(400, 'text is required', 'text');
  const timestamp = typeof body['timestamp'] === 'string' && !Number.isNaN(Date.parse(body['timestamp'])) ? new Date(body['timestamp']).toISOString() : undefined;
  const message = state.addInbound(body['from'], body['text'], timestamp);
  deliveries.emit('message.received', { ...message });
  return { status: 200, body: message };
}

export function createCampaign(req: Req, state: SpecState): Answer {
  const body = isObject(req.body) ? req.body : {};
  for (const field of ['name', 'subject', 'content'] as const) {
    if (typeof body[field] !== 'string' || (body[field] as string).length === 0) return error(400, `${field} is required`, field);
  }
  const recipients = body['recipients'];
  if (!Array.isArray(recipients) || recipients.length === 0 || !recipients.every((r) => typeof r === 'string' && EMAIL.test(r))) {
    return error(400, 'recipients must be a non-empty list of email addresses', 'recipients');
  }
  const schedule = body['schedule'];
  if (schedule !== undefined && (typeof schedule !== 'string' || Number.isNaN(Date.parse(schedule)) || Date.parse(schedule) <= Date.now())) {
    return error(400, 'schedule must be a future ISO 8601 date-time', 'schedule');
  }
  const campaign = {
    id: newId('cmp_'),
    name: body['name'],
    subject: body['subject'],
    recipients: [...new Set(recipients as string[])],
    schedule: schedule ?? null,
    status: schedule ? 'scheduled' : 'draft',
    created_at: new Date().toISOString(),
  };
  state.campaigns.set(campaign.id, campaign);
  return { status: 202, body: campaign };
}

export function getCampaign(id: string, state: SpecState): Answer {
  const campaign = state.campaigns.get(id);
  return campaign ? { status: 200, body: campaign } : error(404, 'no such campaign');
}

export const HOOK_EVENTS = ['message.received', 'message.status'];

/** `verbatim`: the URL is stored and answered as it was sent, once it parses (not in its normalised form). */
export function createHook(req: Req, state: SpecState, verbatim = false): Answer {
  const body = isObject(req.body) ? req.body : {};
  const parsed = typeof body['url'] === 'string' ? parseUrl(body['url']) : undefined;
  const url = parsed && verbatim ? (body['url'] as string) : parsed;
  if (!url) return error(400, 'url must be an absolute http(s) URL', 'url');
  const refused = refusedHost(new URL(url), body['url'] as string);
  if (refused) return error(400, `url refused: ${refused}`, 'url');
  const events = body['events'];
  if (!Array.isArray(events) || events.length === 0 || !events.every((e) => HOOK_EVENTS.includes(e as string))) return error(400, `events must be a list of ${HOOK_EVENTS.join(', ')}`, 'events');
  const secret = typeof body['secret'] === 'string' && body['secret'].length > 0 ? body['secret'] : newId('hook-secret-');
  const hook = { id: newId('hk_'), url, events: events as string[], secret, created_at: new Date().toISOString() };
  state.webhooks.set(hook.id, hook);
  return { status: 201, body: hook };
}

export function listHooks(state: SpecState): Answer {
  return { status: 200, body: { data: [...state.webhooks.values()].map(({ secret: _secret, ...hook }) => hook) } };
}

export function deleteHook(id: string, state: SpecState): Answer {
  return state.webhooks.delete(id) ? { status: 204 } : error(404, 'no such webhook');
}

/** The URL as this target stores it (normalised, so what it answers is a well-formed URI), or undefined. */
function parseUrl(text: string): string | undefined {
  // Parsed the way a WHATWG URL parser does (Node's URL): other Unicode in a path, an unpaired surrogate included,
  // is taken and stored percent-encoded — a legal reading of "a URL" that no document forbids. Whitespace and
  // control characters are refused: a parser would strip or encode them, and a URL that changes is not the one sent.
  if (/[\s\p{Cc}]/u.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
