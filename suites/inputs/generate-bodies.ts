/**
 * Generated request bodies for the POST operations, from their request schemas (schemas/api) and a FIXED seed:
 * the same seed gives the same bodies on every run and machine, so a failure can be replayed. Valid bodies are
 * sampled with fast-check and kept only when AJV agrees they are valid; invalid ones are schema-derived
 * mutations of valid ones, kept only when AJV agrees they are invalid.
 */
import fc from 'fast-check';
import type { Operation } from '../../src/config/types.ts';
import { applyMutation, bodyMutations, mutationsOf, type Mutation } from './invalid-bodies.ts';
import { child, isValid, located, resolve } from './schema-walk.ts';
import { isoDates, validArbitrary, type Overrides } from './valid-bodies.ts';

export const INPUTS_SEED = 20_250_101;
export const MIN_INVALID = 20;
export const VALID_COUNT = 12;

export type BodyOperation = Extract<Operation, 'sendMessage' | 'createCampaign' | 'login' | 'sandboxInbound' | 'createWebhook'>;

export interface BodyOperationSpec {
  operation: BodyOperation;
  /** Kebab-case name used in check ids. */
  slug: string;
  /** Base name of the request schema under schemas/api. */
  schema: string;
  /** Rules of PROFILE.md beyond the schema that a body must follow to be accepted. */
  overrides?: Overrides;
}

export const BODY_OPERATIONS: Record<BodyOperation, BodyOperationSpec> = {
  sendMessage: { operation: 'sendMessage', slug: 'send-message', schema: 'send-message-request' },
  // PROFILE Email campaigns: a schedule in the past is rejected, so valid bodies schedule in the future.
  createCampaign: { operation: 'createCampaign', slug: 'campaign', schema: 'campaign-request', overrides: { '/schedule': isoDates(2100, 2200) } },
  login: { operation: 'login', slug: 'login', schema: 'login-request' },
  sandboxInbound: { operation: 'sandboxInbound', slug: 'sandbox-inbound', schema: 'sandbox-inbound-request' },
  createWebhook: { operation: 'createWebhook', slug: 'webhook', schema: 'webhook-request' },
};

export interface GeneratedBody {
  /** What makes it invalid ("missing /to"), or "valid #3". */
  kind: string;
  body: unknown;
}

/** The schema's branches (oneOf) or the schema itself, each with the AJV ref that validates it alone. */
function branches(spec: BodyOperationSpec): Array<{ name?: string; ref: string; node: ReturnType<typeof located> }> {
  const root = located(spec.schema);
  const oneOf = root.schema.oneOf as Array<{ $ref: string }> | undefined;
  if (!oneOf) return [{ ref: spec.schema, node: root }];
  return oneOf.map((branch) => ({ name: branch.$ref.split('/').pop()!, ref: `${spec.schema}${branch.$ref}`, node: resolve(child(root, branch)) }));
}

/**
 * `count` valid bodies. `accept` narrows them further (e.g. to the message forms the target's profile has).
 * Deterministic for a given seed.
 */
export function validBodies(spec: BodyOperationSpec, seed = INPUTS_SEED, count = VALID_COUNT, accept: (body: unknown) => boolean = () => true): GeneratedBody[] {
  const arbitrary = validArbitrary(located(spec.schema), spec.overrides).filter((body) => isValid(spec.schema, body) && accept(body));
  return fc.sample(arbitrary, { seed, numRuns: count }).map((body, i) => ({ kind: `valid #${i + 1}`, body }));
}

/**
 * Invalid bodies: every mutation of one valid base body per schema branch (one body per kind of mistake), plus
 * the whole-body ones, minus any that AJV still finds valid. Deterministic for a given seed.
 */
export function invalidBodies(spec: BodyOperationSpec, seed = INPUTS_SEED): GeneratedBody[] {
  const out: GeneratedBody[] = [];
  const seen = new Set<string>();
  branches(spec).forEach(({ name, ref, node }, index) => {
    const arbitrary = validArbitrary(node, spec.overrides).filter((body) => isValid(ref, body));
    const [base] = fc.sample(arbitrary, { seed: seed + index, numRuns: 1 }) as [Record<string, unknown>];
    const mutations: Mutation[] = [...mutationsOf(node, base), ...(index === 0 ? bodyMutations(node, base) : [])];
    for (const mutation of mutations) {
      const body = applyMutation(base, mutation);
      // One body per kind of mistake: the forms share /to and /type, so later forms add only their own fields.
      if (seen.has(mutation.kind) || isValid(spec.schema, body)) continue;
      seen.add(mutation.kind);
      out.push({ kind: name ? `${name} form: ${mutation.kind}` : mutation.kind, body });
    }
  });
  return out;
}

/** A body as sent, cut for a report: the first characters of its JSON and its size. */
export function describeBody(body: unknown, max = 160): string {
  const text = JSON.stringify(body) ?? String(body);
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** The number the smoke checks send to: a plausible number any implementation of §2.1 accepts. */
export const PLAIN_RECIPIENT = '15551234567';

/**
 * SERVICE-SPEC §2.1's long form with generated message texts: 1–160 graphemes of any script, emoji and RTL
 * text included, but no control characters and never blank — text a messaging service must take.
 */
export function longFormTextBodies(seed = INPUTS_SEED, count = VALID_COUNT): GeneratedBody[] {
  const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 160 }).filter((s) => /\S/u.test(s) && !/\p{Cc}/u.test(s));
  return fc.sample(text, { seed, numRuns: count }).map((body, i) => ({
    kind: `long-form text #${i + 1}`,
    body: { to: PLAIN_RECIPIENT, type: 'text', text: { body } },
  }));
}
