/**
 * Init's observation of a running target, with the credentials the run will use: success and rejected statuses,
 * the error body (media type and shape), rate-limit headers and policy, the list (observe-list.ts), who refuses
 * another account's resource and how. Creates are real (a message, a campaign, two sandbox messages, a webhook
 * registration deleted at once); nothing is sent beyond the target, and the webhook URL is a closed loopback port.
 * Webhook signing-key encoding is not observed: it needs a delivery received, which init does not wait for.
 */
import type { CredentialsConfig } from '../config/types.ts';
import { detectStyle, readRateLimit } from '../ratelimit/headers.ts';
import { Findings, InitError } from './choices.ts';
import { observeList } from './observe-list.ts';
import { observeAccessAndOauth } from './observe-auth.ts';
import { BudgetSpent, isSuccess, ProbeClient, type Paths, type Seen } from './probe-client.ts';

export interface ErrorSample {
  body: unknown;
  mediaType: string;
  said: string;
}

export interface Observed {
  findings: Findings;
  errors: ErrorSample[];
  requests: number;
}

const MESSAGE = { to: '15551234567', type: 'text', text: { body: 'harness init' } };

export async function observeTarget(baseUrl: string, credentials: CredentialsConfig, paths: Paths, timeoutMs: number): Promise<Observed> {
  const out = new Findings();
  const errors: ErrorSample[] = [];
  const probe = new ProbeClient(baseUrl, timeoutMs);
  const key = credentials.apiKey;
  let firstList: Seen | undefined;
  const keep = (seen: Seen): void => {
    const mediaType = (seen.res.header('content-type') ?? '').split(';')[0]!.trim();
    const body = seen.res.json();
    if (seen.res.status >= 400 && body !== undefined) errors.push({ body, mediaType, said: seen.said });
  };
  try {
    keep(await probe.send({ path: '/v1/harness-init-no-such-path' }));
    if (!key) {
      out.note('HARNESS_API_KEY is not set: only unauthenticated answers were observed');
      return { findings: out, errors, requests: probe.sent };
    }
    const anonymous = await probe.send({ path: paths.listMessages! });
    keep(anonymous);
    const send = await probe.send({ method: 'POST', path: paths.sendMessage!, bearer: key, json: MESSAGE });
    const list = await probe.send({ path: paths.listMessages!, bearer: key });
    if (send.res.status === 401 && list.res.status === 401) {
      throw new InitError('credentials', `the target answered 401 to every request made with HARNESS_API_KEY (${send.said}; ${list.said}): the key is not accepted there, so nothing could be observed and no configuration was written`);
    }
    keep(send);
    if (isSuccess(send.res.status)) out.set('api.successStatus.sendMessage', send.res.status, send.said, 'behaviour');
    else out.note(`${send.said} to a valid text message: no success status observed for sendMessage`);
    firstList = list;

    const invalid = await probe.send({ method: 'POST', path: paths.sendMessage!, bearer: key, json: { to: 'not-a-number', type: 'text', text: { body: 'x' } } });
    keep(invalid);
    if (invalid.res.status >= 400 && invalid.res.status < 500 && invalid.res.status !== 401 && invalid.res.status !== 403 && invalid.res.status !== 429) {
      // PROFILE's set already accepts 400 and 422: only a status outside it is a choice to describe.
      const profile = [400, 422];
      const value = profile.includes(invalid.res.status) ? profile : [invalid.res.status];
      out.set('api.rejectedStatus', value, `${invalid.said} to a message whose "to" is not a number`, 'behaviour');
    }
    const malformed = await probe.send({ method: 'POST', path: paths.sendMessage!, bearer: key, body: '{"to": ', headers: { 'content-type': 'application/json' } });
    keep(malformed);
    if (malformed.res.status >= 400 && malformed.res.status < 500) out.set('api.malformedJsonStatus', [malformed.res.status], `${malformed.said} to a body that is not JSON`, 'behaviour');

    await seedAndList(probe, credentials, paths, out);
    await campaigns(probe, credentials, paths, out, keep);
    await webhooks(probe, key, paths, out);
    await observeAccessAndOauth(probe, credentials, paths, out, keep);
    rateLimits(list, await windowEdge(probe, paths.listMessages!, key, list), probe.authenticatedHeaders, out);
  } catch (err) {
    if (!(err instanceof BudgetSpent)) throw err;
    if (firstList) rateLimits(firstList, undefined, probe.authenticatedHeaders, out);
    out.note(`observation stopped early (${err.message}); what was not observed stays at PROFILE's defaults`);
  } finally {
    await probe.close();
  }
  return { findings: out, errors, requests: probe.sent };
}

/**
 * For headers that state no window: the first answer after a window boundary resets after (nearly) the whole
 * window. Wait until two seconds before the announced reset (the reset is rounded up), then ask every 200 ms until
 * the reset jumps up; bounded by 12 requests and init's time budget. Undefined when it cannot be seen (a sliding window, a budget spent).
 */
async function windowEdge(probe: ProbeClient, path: string, key: string, last: Seen): Promise<{ seconds: number; said: string } | undefined> {
  const style = detectStyle(last.res.headers);
  if (style === 'none' || readRateLimit(last.res.headers, style, Date.now()).windowS !== undefined) return undefined;
  let previous = readRateLimit((await probe.send({ path, bearer: key })).res.headers, style, Date.now()).resetS;
  if (previous === undefined) return undefined;
  const waitMs = Math.max(0, previous - 2) * 1000;
  if (waitMs + 2000 > probe.remainingMs()) return undefined;
  await new Promise((r) => setTimeout(r, waitMs));
  for (let i = 0; i < 12; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const seen = await probe.send({ path, bearer: key });
    const reset = readRateLimit(seen.res.headers, style, Date.now()).resetS;
    if (reset === undefined) return undefined;
    if (reset > previous) return { seconds: Math.ceil(reset), said: `${seen.said} right after a window boundary (reset jumped from ${previous} to ${reset} s)` };
    previous = reset;
  }
  return undefined;
}

function rateLimits(seen: Seen, edge: { seconds: number; said: string } | undefined, answers: ReadonlyArray<Record<string, string>>, out: Findings): void {
  const style = detectStyle(seen.res.headers);
  if (style === 'none') {
    out.set('api.rateLimitHeaders', 'none', `${seen.said} without any rate-limit header`, 'behaviour');
    out.set('conformance.profile.rateLimitHeaders', false, `${seen.said} without any rate-limit header`, 'behaviour');
    return;
  }
  const reading = readRateLimit(seen.res.headers, style, Date.now());
  // PROFILE's own family is what `auto` reads first: pinning it would change nothing.
  out.set('api.rateLimitHeaders', style === 'ietf-draft-09' ? 'auto' : style, `${seen.said} with ${Object.keys(reading.fields ?? {}).join(', ') || style} (${reading.revision ?? style})`, 'behaviour');
  if (reading.windowS === undefined && reading.quota !== undefined) {
    if (edge) {
      out.set('api.rateLimitPolicy', { quota: reading.quota, windowSeconds: edge.seconds }, `${seen.said} with quota ${reading.quota}; ${edge.said} (the headers state no window)`, 'behaviour');
      return;
    }
    // No boundary seen: the longest reset over every authenticated answer is the best estimate of the window.
    const resets = answers.map((h) => readRateLimit(h, style, Date.now()).resetS).filter((r): r is number => typeof r === 'number');
    const longest = Math.max(1, ...resets);
    out.set('api.rateLimitPolicy', { quota: reading.quota, windowSeconds: Math.ceil(longest) }, `${seen.said}: quota ${reading.quota}; the longest reset over ${resets.length} answers was ${longest} s (the headers state no window: check it against your documentation)`, 'behaviour');
  }
}

async function seedAndList(probe: ProbeClient, credentials: CredentialsConfig, paths: Paths, out: Findings): Promise<void> {
  const key = credentials.apiKey!;
  for (let i = 0; i < 3; i++) {
    const seen = await probe.send({ method: 'POST', path: paths.sandboxInbound!, bearer: key, json: { from: '15550001111', text: `harness init ${i}` } });
    if (!isSuccess(seen.res.status)) {
      // conformance.sandbox: false would skip MUST checks that need seeded data: the user's call, never init's.
      out.note(`${seen.said}: no sandbox; the list was observed on the data that is there (a target without one says so with conformance.sandbox: false; init does not switch an area off)`);
      break;
    }
    out.set('api.successStatus.sandboxInbound', seen.res.status, seen.said, 'behaviour');
  }
  await observeList(probe, paths.listMessages!, key, out);
}

async function campaigns(probe: ProbeClient, credentials: CredentialsConfig, paths: Paths, out: Findings, keep: (s: Seen) => void): Promise<void> {
  const key = credentials.apiKey!;
  const body = { name: 'harness init', subject: 'harness init', content: '<p>harness init</p>', recipients: ['init@example.com'] };
  const created = await probe.send({ method: 'POST', path: paths.createCampaign!, bearer: key, json: body });
  if (!isSuccess(created.res.status)) {
    // Switching an area off would skip MUST checks too: that is the user's call, never init's.
    out.note(`${created.said}: campaigns were not observed${created.res.status === 404 ? ' (a target without campaigns says so with conformance.profile.campaigns: false; init does not switch an area off)' : ''}`);
    return;
  }
  out.set('api.successStatus.createCampaign', created.res.status, created.said, 'behaviour');
  const id = created.res.json<{ id?: string }>()?.id;
  if (typeof id !== 'string') return;
  const path = paths.getCampaign!.replace('{id}', encodeURIComponent(id));
  const read = await probe.send({ path, bearer: key });
  if (isSuccess(read.res.status)) out.set('api.successStatus.getCampaign', read.res.status, read.said.replace(id, '{id}'), 'behaviour');
  const missing = await probe.send({ path: paths.getCampaign!.replace('{id}', 'harness-init-unknown'), bearer: key });
  keep(missing);
  const other = credentials.otherAccount?.apiKey;
  if (!other) return;
  const foreign = await probe.send({ path, bearer: other });
  const said = `${foreign.said.replace(id, '{id}')} with HARNESS_OTHER_API_KEY (another account's campaign)`;
  if (foreign.res.status === 404) out.set('api.ownership', { refusal: 'not-found' }, said, 'behaviour');
  else if (foreign.res.status === 403) out.set('api.ownership', { refusal: 'forbidden' }, said, 'behaviour');
  else out.note(`${said}: another account's resource was not refused — a MUST fault no config key describes; the run will report it`);
}

async function webhooks(probe: ProbeClient, key: string, paths: Paths, out: Findings): Promise<void> {
  // Port 9 (discard) on loopback: nothing listens, and a delivery attempt never leaves the machine.
  const created = await probe.send({ method: 'POST', path: paths.createWebhook!, bearer: key, json: { url: 'http://127.0.0.1:9/harness-init', events: ['message.status'] } });
  if (!isSuccess(created.res.status)) {
    out.note(`${created.said}: webhook management was not observed${created.res.status === 404 ? ' (a target without webhooks says so with conformance.profile.webhooks: false; init does not switch an area off)' : ''}`);
    return;
  }
  out.set('api.successStatus.createWebhook', created.res.status, created.said, 'behaviour');
  const id = created.res.json<{ id?: string }>()?.id;
  const listed = await probe.send({ path: paths.listWebhooks!, bearer: key });
  if (isSuccess(listed.res.status)) out.set('api.successStatus.listWebhooks', listed.res.status, listed.said, 'behaviour');
  if (typeof id !== 'string') return;
  const deleted = await probe.send({ method: 'DELETE', path: paths.deleteWebhook!.replace('{id}', encodeURIComponent(id)), bearer: key });
  if (isSuccess(deleted.res.status)) out.set('api.successStatus.deleteWebhook', deleted.res.status, deleted.said.replace(id, '{id}'), 'behaviour');
  out.note('webhook signing-key encoding (webhooks.signingKey) was not observed: that needs a delivery received; left at auto');
}
