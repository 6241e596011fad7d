/**
 * Generated request bodies for the POST operations, from the operation's EFFECTIVE request schema — the
 * target's own replacement (config `api.schemas`) when it names one, else the built-in one under schemas/api —
 * and a FIXED seed: the same seed gives the same bodies on every run and machine, so a failure can be replayed.
 * Valid bodies are sampled with fast-check and kept only when AJV agrees they are valid; invalid ones are
 * schema-derived mutations of valid ones, kept only when AJV agrees they are invalid AND the rule they break has
 * a source (rule-sources.ts): SERVICE-SPEC.md, PROFILE.md, or the target's own schema.
 */
import fc from 'fast-check';
import type { Operation } from '../../../src/config/types.ts';
import { applyMutation, bodyMutations, mutationsOf, type Mutation } from './invalid-bodies.ts';
import { builtInRule, replacementRule, type RuleFamily } from './rule-sources.ts';
import { child, isNever, isValid, lastValidationError, loadReplacement, located, resolve, unreadable, type Located } from './schema-walk.ts';
import { boundedFilter, isoDates, MAX_REJECTIONS, validArbitrary, type Overrides } from './valid-bodies.ts';

export const INPUTS_SEED = 20_250_101;
export const MIN_INVALID = 8;
export const VALID_COUNT = 12;

export type BodyOperation = Extract<Operation, 'sendMessage' | 'createCampaign' | 'login' | 'sandboxInbound' | 'createWebhook'>;

export interface BodyOperationSpec {
  operation: BodyOperation;
  /** Kebab-case name used in check ids. */
  slug: string;
  /** Base name of the request schema under schemas/api (and the key of its replacement in `api.schemas`). */
  schema: string;
  /** Rules beyond the schema that a valid body must follow, each with its source in a comment. */
  overrides?: Overrides;
  /**
   * A generated body as the source of its form shows it, where the schema allows more than the source shows
   * (applied before AJV judges the body, to valid bodies and to the bases that invalid ones are mutated from).
   */
  asShown?: (body: unknown) => unknown;
}

/**
 * SERVICE-SPEC §2.1: in the short form "the text field is then a plain string and type is omitted". The built-in
 * schema lets the short form carry `type: "text"` (the reference takes it), but no document shows that body, so a
 * generated short form never carries it.
 */
function shortFormWithoutType(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const { type: _type, ...rest } = body as Record<string, unknown>;
  return typeof rest.text === 'string' && 'type' in body ? rest : body;
}

/** Plain addresses (letters, digits, one dot) on reserved domains (RFC 2606): an email address to any validator. */
const plainEmails = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,11}(\.[a-z0-9]{1,8})?$/), fc.constantFrom('example.com', 'example.org', 'mail.example.net'))
  .map(([local, domain]) => `${local}@${domain}`);

export const BODY_OPERATIONS: Record<BodyOperation, BodyOperationSpec> = {
  sendMessage: { operation: 'sendMessage', slug: 'send-message', schema: 'send-message-request', asShown: shortFormWithoutType },
  // PROFILE Email campaigns: a schedule in the past is rejected, so valid bodies schedule in the future.
  createCampaign: { operation: 'createCampaign', slug: 'campaign', schema: 'campaign-request', overrides: { '/schedule': isoDates(2100, 2200) } },
  // SERVICE-SPEC §2.6: "Account email address" — a valid login body carries an email address.
  login: { operation: 'login', slug: 'login', schema: 'login-request', overrides: { '/email': plainEmails } },
  sandboxInbound: { operation: 'sandboxInbound', slug: 'sandbox-inbound', schema: 'sandbox-inbound-request' },
  createWebhook: { operation: 'createWebhook', slug: 'webhook', schema: 'webhook-request' },
};

/** The schema bodies are generated from: the target's replacement, or the built-in one. */
export interface EffectiveSchema {
  /** `$id` (or base name) that AJV and the walker know it by. */
  ref: string;
  /** The built-in base name it stands for. */
  name: string;
  replaced: boolean;
  /** For reports: "schemas/api/x.schema.json" or "api.schemas x (/path/file.json)". */
  label: string;
}

export function effectiveSchema(spec: BodyOperationSpec, replacements: Readonly<Record<string, string>> = {}): EffectiveSchema {
  const replacement = replacements[spec.schema];
  if (replacement === undefined) return { ref: spec.schema, name: spec.schema, replaced: false, label: `schemas/api/${spec.schema}.schema.json` };
  return { ref: loadReplacement(replacement), name: spec.schema, replaced: true, label: `api.schemas ${spec.schema} (${replacement})` };
}

export interface GeneratedBody {
  /** What makes it invalid ("missing /to"), or "valid #3". */
  kind: string;
  body: unknown;
}

/** An invalid body and the rule it breaks, with where that rule comes from. */
export interface InvalidCase extends GeneratedBody {
  rule: string;
  source: string;
  family: RuleFamily;
}

export interface GenerationOptions {
  seed?: number;
  /** Default: the built-in schema. */
  schema?: EffectiveSchema;
  /** Which oneOf branches (by `$defs` name) the target's profile has; default: all. */
  branch?: (name: string) => boolean;
}

/** The schema's branches (oneOf) or the schema itself, each with the AJV ref that validates it alone. */
function branches(schema: EffectiveSchema, keep: (name: string) => boolean): Array<{ name?: string; ref: string; node: ReturnType<typeof located> }> {
  const root = located(schema.ref);
  const oneOf = root.schema.oneOf as Array<{ $ref?: string } | boolean> | undefined;
  if (!oneOf || !oneOf.every((b) => typeof b === 'object' && b !== null && typeof b.$ref === 'string' && b.$ref.startsWith('#'))) return [{ ref: schema.ref, node: root }];
  return (oneOf as Array<{ $ref: string }>)
    .map((branch, i) => ({ name: branch.$ref.split('/').pop()!, ref: `${schema.ref}${branch.$ref}`, node: resolve(child(root, branch, 'oneOf', i)) }))
    .filter((b) => keep(b.name) && !isNever(b.node.schema));
}

function builtIn(spec: BodyOperationSpec): EffectiveSchema {
  return { ref: spec.schema, name: spec.schema, replaced: false, label: `schemas/api/${spec.schema}.schema.json` };
}

/**
 * `count` valid bodies. `accept` narrows them further (e.g. to the message forms the target's profile has).
 * Deterministic for a given seed.
 */
export function validBodies(
  spec: BodyOperationSpec,
  seed = INPUTS_SEED,
  count = VALID_COUNT,
  accept: (body: unknown) => boolean = () => true,
  schema: EffectiveSchema = builtIn(spec),
): GeneratedBody[] {
  const root = located(schema.ref);
  const arbitrary = boundedFilter(shown(spec, validArbitrary(root, spec.overrides)), (body) => isValid(schema.ref, body) && accept(body), () => noValidBody(root));
  return fc.sample(arbitrary, { seed, numRuns: count }).map((body, i) => ({ kind: `valid #${i + 1}`, body }));
}

function shown(spec: BodyOperationSpec, arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return spec.asShown ? arbitrary.map(spec.asShown) : arbitrary;
}

/** The generator's bodies keep failing AJV: the schema holds a constraint it does not read (a format, a contradiction). */
function noValidBody(node: Located): never {
  const last = lastValidationError();
  unreadable(node, `none of ${MAX_REJECTIONS} generated bodies in a row was valid against it (a format the generator does not produce, or constraints that contradict each other)${last ? `; the last one broke ${last}` : ''}`);
}

type MutatedBody = { mutation: Mutation; kind: string; body: unknown };

/**
 * Mutated bodies already made in this process, by spec, then by schema, seed and the branches kept: they depend
 * on nothing else, and a run asks for the same ones once per rule family and once more for the hostile bodies.
 * The walker knows a schema $id by one schema for the whole process (schema-walk.ts loadReplacement), so a ref
 * names the same bodies every time.
 */
const mutatedCache = new WeakMap<BodyOperationSpec, Map<string, readonly MutatedBody[]>>();

/** Every mutation of one valid base body per schema branch, the whole-body ones with the first branch. */
function mutatedBodies(spec: BodyOperationSpec, options: GenerationOptions): readonly MutatedBody[] {
  const schema = options.schema ?? builtIn(spec);
  const seed = options.seed ?? INPUTS_SEED;
  const kept = branches(schema, options.branch ?? (() => true));
  const key = JSON.stringify([schema.ref, seed, kept.map((b) => b.ref)]);
  let bySpec = mutatedCache.get(spec);
  const cached = bySpec?.get(key);
  if (cached) return cached;
  const out: MutatedBody[] = [];
  const seen = new Set<string>();
  kept.forEach(({ name, ref, node }, index) => {
    const arbitrary = boundedFilter(shown(spec, validArbitrary(node, spec.overrides)), (body) => isValid(ref, body), () => noValidBody(node));
    const [base] = fc.sample(arbitrary, { seed: seed + index, numRuns: 1 }) as [Record<string, unknown>];
    const mutations: Mutation[] = [...mutationsOf(node, base), ...(index === 0 ? bodyMutations(node, base) : [])];
    for (const mutation of mutations) {
      const body = applyMutation(base, mutation);
      // One body per kind of mistake: the forms share /to and /type, so later forms add only their own fields.
      // A hostile body breaks no rule, so whether the schema calls it valid does not matter.
      if (seen.has(mutation.kind) || (!mutation.hostile && isValid(schema.ref, body))) continue;
      seen.add(mutation.kind);
      out.push({ mutation, kind: name ? `${name} form: ${mutation.kind}` : mutation.kind, body });
    }
  });
  if (!bySpec) mutatedCache.set(spec, (bySpec = new Map()));
  bySpec.set(key, out);
  return out;
}

/**
 * Invalid bodies, each breaking one rule with a source: a built-in schema's rules only where rule-sources.ts
 * names who stated them, a replacement schema's every rule (the target's own). Deterministic for a given seed.
 */
export function invalidBodies(spec: BodyOperationSpec, options: GenerationOptions = {}): InvalidCase[] {
  const schema = options.schema ?? builtIn(spec);
  const out: InvalidCase[] = [];
  for (const { mutation, kind, body } of mutatedBodies(spec, options)) {
    if (mutation.hostile) continue;
    const args = [mutation.at, mutation.keywords, mutation.node, mutation.value] as const;
    const stated = schema.replaced ? replacementRule(schema.name, ...args) : builtInRule(schema.name, ...args);
    if (stated) out.push({ kind, body, ...stated });
  }
  return out;
}

/** Hostile bodies (deep nesting, a huge string): robustness probes that break no one's stated rule. */
export function hostileBodies(spec: BodyOperationSpec, options: GenerationOptions = {}): GeneratedBody[] {
  return mutatedBodies(spec, options).filter(({ mutation }) => mutation.hostile).map(({ kind, body }) => ({ kind, body }));
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

