/**
 * Faulty targets for the inputs suite's rule families: a target whose send already breaks one rule (it takes a long
 * form without `type`, true by PROFILE's letter) and, on top of it, one more fault of another family (a `to` with a
 * leading "+"). The second fault must fail a check of its own, not only add a count to a check that already failed.
 */
import type { FaultCase } from '../fault-case.ts';
import type { ProxyRequest } from '../faulty-proxy.ts';

const MESSAGES_PATH = '/v1/whatsapp/messages';

/** The send request with its JSON object body rewritten by `change`; any other request as it came. */
function rewriteSend(req: ProxyRequest, change: (body: Record<string, unknown>) => Record<string, unknown>): ProxyRequest {
  if (req.method !== 'POST' || req.path.split('?')[0] !== MESSAGES_PATH) return req;
  let body: unknown;
  try {
    body = JSON.parse(req.body);
  } catch {
    return req;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return req;
  return { ...req, body: JSON.stringify(change(body as Record<string, unknown>)) };
}

/** A long form that lost its `type` reaches the reference as a long form: the target takes it. */
function typeOptional(body: Record<string, unknown>): Record<string, unknown> {
  const text = body.text;
  return !('type' in body) && text && typeof text === 'object' && !Array.isArray(text) ? { ...body, type: 'text' } : body;
}

/** A `to` written with a leading "+" reaches the reference without it: the target takes it. */
function plusAllowed(body: Record<string, unknown>): Record<string, unknown> {
  return typeof body.to === 'string' && /^\+[0-9]+$/.test(body.to) ? { ...body, to: body.to.slice(1) } : body;
}

export const INPUT_FAULTS: FaultCase[] = [
  {
    name: 'the send takes a long form without type',
    suites: ['inputs'],
    fault: { onRequest: (req) => rewriteSend(req, typeOptional) },
    failing: ['inputs.send-message.invalid-rejected.fields'],
    verdict: 'selection-passed',
  },
  {
    name: 'the send takes a long form without type, and a number with a leading "+"',
    suites: ['inputs'],
    fault: { onRequest: (req) => rewriteSend(req, (body) => plusAllowed(typeOptional(body))) },
    failing: ['inputs.send-message.invalid-rejected.fields', 'inputs.send-message.invalid-rejected.values'],
    verdict: 'selection-passed',
  },
];
