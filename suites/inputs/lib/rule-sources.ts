/**
 * Where each rule of the built-in request schemas comes from. The schemas under schemas/api are what the
 * reference target validates with, and they hold more than anyone stated (extra properties refused, a caption
 * limit, template name patterns, a webhook secret length …). The inputs suite tests only the rules listed here,
 * each with its source: SERVICE-SPEC.md (the field's type or format as §2 gives it) or PROFILE.md (a choice the
 * spec leaves open). A rule not listed is the reference's own and is never held against another target.
 *
 * A target's own replacement schema (config `api.schemas`) is different: every rule in it is the target's
 * statement about itself, so each is tested with the source "api.schemas <name>".
 *
 * A mutation is credited to a rule only when it breaks that rule under every reading of its source: "a URL" may be
 * RFC 3986's or a WHATWG parser's, so only characters no reading takes (an RTL override in front, a NUL in the
 * scheme) stand for "not a URL"; an unpaired surrogate is never a rule case (invalid-bodies.ts, ODD_UNICODE).
 *
 * Whether a broken rule must be REJECTED is never stated by SERVICE-SPEC.md (it shows no validation status, §7
 * "statuses for validation … not shown"); the rejection itself is PROFILE General ("A rejected request body is
 * 400") and api.rejectedStatus. So a rule's source says why the body is wrong, not that refusing it is a MUST.
 */
import { apiAjv } from '../../../src/schemas/registry.ts';
import { expectedType } from './schema-walk.ts';

interface RuleRow {
  /** The rule's field: a JSON Pointer with `*` for array items, matched whole (a RegExp source). */
  at: string;
  keywords: readonly string[];
  rule: string;
  source: string;
}

const MESSAGES = 'PROFILE Messages';
const media = '/(?:image|document|audio|video)';

const ROWS: Readonly<Record<string, readonly RuleRow[]>> = {
  'send-message-request': [
    { at: '', keywords: ['type'], rule: 'the body is an object with the fields of §2.1', source: 'SERVICE-SPEC §2.1, §4' },
    { at: '/to', keywords: ['type', 'pattern'], rule: '`to` is a string of digits only, with country code', source: 'SERVICE-SPEC §2.1' },
    { at: '/to', keywords: ['required'], rule: '`to` is present', source: `${MESSAGES} ("a missing field … gets 400")` },
    { at: '/type', keywords: ['type'], rule: '`type` is a string', source: 'SERVICE-SPEC §2.1' },
    { at: '/type', keywords: ['const', 'enum'], rule: '`type` is a known message type', source: `${MESSAGES} ("An unknown type … gets 400")` },
    { at: '/type', keywords: ['required'], rule: '`type` is present in the long and media forms', source: `${MESSAGES} ("a missing field … gets 400")` },
    { at: '/text', keywords: ['type'], rule: '`text` is an object {body} (or a plain string in the short form)', source: 'SERVICE-SPEC §2.1' },
    { at: '/text', keywords: ['required'], rule: '`text` is present in text messages', source: `${MESSAGES} ("a missing field … gets 400")` },
    { at: '/text', keywords: ['minLength', 'maxLength'], rule: 'the message text is 1–4096 characters', source: `${MESSAGES} ("text.body: 1–4096 characters")` },
    { at: '/text/body', keywords: ['type'], rule: '`text.body` is a string', source: 'SERVICE-SPEC §2.1' },
    { at: '/text/body', keywords: ['required'], rule: '`text.body` is present', source: `${MESSAGES} ("a missing field … gets 400")` },
    { at: '/text/body', keywords: ['minLength', 'maxLength'], rule: '`text.body` is 1–4096 characters', source: `${MESSAGES} ("text.body: 1–4096 characters")` },
    { at: media, keywords: ['type', 'required'], rule: 'a media message carries {link, caption?} under its type', source: `${MESSAGES} (WhatsApp Cloud API media shape {link, caption?})` },
    { at: `${media}/link`, keywords: ['type', 'required', 'format'], rule: 'a media `link` is a URL', source: `${MESSAGES} (WhatsApp Cloud API media shape {link, caption?})` },
    { at: `${media}/caption`, keywords: ['type'], rule: 'a media `caption` is a string', source: `${MESSAGES} (WhatsApp Cloud API media shape {link, caption?})` },
    { at: '/template(?:/name|/language|/language/code)?', keywords: ['type', 'required'], rule: 'a template message carries {name, language: {code}}', source: `${MESSAGES} (template {name, language: {code}})` },
  ],
  'campaign-request': [
    { at: '', keywords: ['type'], rule: 'the body is an object with the fields of §2.5', source: 'SERVICE-SPEC §2.5, §4' },
    { at: '/(?:name|subject|content|schedule)', keywords: ['type'], rule: 'name, subject, content and schedule are strings', source: 'SERVICE-SPEC §2.5' },
    { at: '/recipients(?:/\\*)?', keywords: ['type'], rule: '`recipients` is an array of strings', source: 'SERVICE-SPEC §2.5' },
    { at: '/recipients/\\*', keywords: ['format'], rule: 'each recipient is an email address', source: 'SERVICE-SPEC §2.5 ("Recipient email addresses"); PROFILE Email campaigns ("syntactically valid addresses")' },
    { at: '/schedule', keywords: ['pattern', 'format'], rule: '`schedule` is an ISO 8601 UTC date-time', source: 'SERVICE-SPEC §2.5' },
    { at: '/(?:name|subject|content|recipients)', keywords: ['required'], rule: 'name, subject, content and recipients are required', source: 'PROFILE Email campaigns ("Required: name, subject, content, recipients")' },
    { at: '/(?:name|subject|content)', keywords: ['minLength', 'maxLength'], rule: 'name 1–200, subject 1–998, content 1 byte–1 MiB', source: 'PROFILE Email campaigns' },
    { at: '/recipients', keywords: ['minItems', 'maxItems'], rule: '1–10,000 recipients', source: 'PROFILE Email campaigns ("recipients (1–10,000 …)")' },
  ],
  'login-request': [
    { at: '', keywords: ['type'], rule: 'the body is an object {email, password}', source: 'SERVICE-SPEC §2.6, §4' },
    { at: '/(?:email|password)', keywords: ['type'], rule: '`email` and `password` are strings', source: 'SERVICE-SPEC §2.6' },
    { at: '/(?:email|password)', keywords: ['required'], rule: '`email` and `password` are present', source: 'PROFILE Authentication ("Missing fields: 400")' },
  ],
  'sandbox-inbound-request': [
    { at: '', keywords: ['type'], rule: 'the body is an object {from, text, timestamp?}', source: `${MESSAGES} (sandbox "POST /v1/sandbox/inbound {from, text, timestamp?}")` },
    { at: '/(?:from|text|timestamp)', keywords: ['type'], rule: 'from, text and timestamp are strings', source: `${MESSAGES} (sandbox body; §2.3 types)` },
    { at: '/(?:from|text)', keywords: ['required'], rule: '`from` and `text` are required', source: `${MESSAGES} (sandbox {from, text, timestamp?})` },
    { at: '/from', keywords: ['pattern'], rule: '`from` is a phone number, digits only with country code', source: `${MESSAGES} (sandbox "from"; numbers as §2.1)` },
    { at: '/timestamp', keywords: ['pattern', 'format'], rule: '`timestamp` is an ISO 8601 UTC date-time', source: `${MESSAGES} (sandbox "timestamp?"; §2.3 "ISO 8601 UTC")` },
  ],
  'webhook-request': [
    { at: '', keywords: ['type'], rule: 'the body is an object {url, events, secret?}', source: 'PROFILE Webhooks ("POST /v1/webhooks {url, events, secret?}")' },
    { at: '/(?:url|events|secret)', keywords: ['type'], rule: 'url is a string, events an array, secret a string', source: 'PROFILE Webhooks ({url, events, secret?})' },
    { at: '/(?:url|events)', keywords: ['required'], rule: '`url` and `events` are required', source: 'PROFILE Webhooks ({url, events, secret?})' },
    { at: '/url', keywords: ['format', 'pattern'], rule: '`url` is an http(s) URL (deliveries are HTTP POSTs)', source: 'PROFILE Webhooks ("Delivery … POST")' },
    { at: '/events/\\*', keywords: ['type', 'const', 'enum'], rule: 'each event is message.received or message.status', source: 'PROFILE Webhooks ("Events: message.received, message.status")' },
  ],
};

/**
 * The kind of rule a case breaks, by the schema keyword it breaks: which fields a body has (a required one missing,
 * one no form takes) or what a field holds (its type, format, pattern, length, count or allowed values). The
 * inputs suite has one check per family, so a target that breaks a rule of one (a long form without `type`
 * accepted) cannot hide a fault of the other (a `to` with a leading "+" accepted) inside one failed check. Every
 * built-in request schema states rules of both families.
 */
export type RuleFamily = 'fields' | 'values';

export const RULE_FAMILIES: Readonly<Record<RuleFamily, string>> = {
  fields: 'a required field missing, or a field no form takes',
  values: 'a field of the wrong type, format, length or value',
};

export function familyOf(keyword: string): RuleFamily {
  return keyword === 'required' || keyword === 'additionalProperties' || keyword === 'false' ? 'fields' : 'values';
}

export interface RuleSource {
  rule: string;
  source: string;
  family: RuleFamily;
}

/**
 * The stated rule a mutation at `at` breaking one of `keywords` tests, for a built-in schema; undefined when no
 * one stated it (the case is not generated).
 */
export function builtInRule(schema: string, at: string, keywords: readonly string[], node?: Record<string, any>, value?: unknown): RuleSource | undefined {
  for (const keyword of keywords) {
    if (!breaks(keyword, node, value)) continue;
    const row = (ROWS[schema] ?? []).find((r) => r.keywords.includes(keyword) && new RegExp(`^${r.at}$`).test(at));
    if (row) return { rule: row.rule, source: row.source, family: familyOf(keyword) };
  }
  return undefined;
}

/** A replacement schema's rule: the target's own statement about itself. */
export function replacementRule(name: string, at: string, keywords: readonly string[], node?: Record<string, any>, value?: unknown): RuleSource {
  const broken = keywords.filter((k) => breaks(k, node, value));
  if (broken.length > 0) keywords = broken;
  return { rule: `${at || '/'}: ${keywords.join(' / ') || 'schema'}`, source: `api.schemas ${name} (the target's own schema)`, family: familyOf(keywords[0] ?? 'type') };
}

/**
 * Whether `value` (the mutated field) breaks `keyword` of its schema node on its own: a mutation is credited to a
 * stated rule only when it breaks that rule, not merely another (unstated) one at the same field — "htt-p://x"
 * is a URL, so it does not test "a link is a URL" even though it breaks the built-in schema's ^https?:// pattern.
 */
export function breaks(keyword: string, node: Record<string, any> | undefined, value: unknown): boolean {
  if (!node) return true;
  switch (keyword) {
    case 'type': {
      const type = typeof node.type === 'string' ? node.type : expectedType(node);
      return type === undefined ? false : !ofType(value, type);
    }
    case 'const':
      return 'const' in node && JSON.stringify(value) !== JSON.stringify(node.const);
    case 'enum':
      return Array.isArray(node.enum) && !node.enum.some((v: unknown) => JSON.stringify(v) === JSON.stringify(value));
    case 'pattern':
      return typeof node.pattern === 'string' && (typeof value !== 'string' || !new RegExp(node.pattern, 'u').test(value));
    case 'format':
      return typeof node.format === 'string' && typeof value === 'string' && !formatValidator(node.format)(value);
    default:
      // required, additionalProperties, lengths and item counts: the mutation is built to break exactly that.
      return true;
  }
}

function ofType(value: unknown, type: string): boolean {
  switch (type) {
    case 'array': return Array.isArray(value);
    case 'object': return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'null': return value === null;
    case 'integer': return Number.isInteger(value);
    default: return typeof value === type;
  }
}

const formats = new Map<string, (value: string) => boolean>();

function formatValidator(format: string): (value: string) => boolean {
  let check = formats.get(format);
  if (!check) {
    // The process's API Ajv (made on first use, not at import): an Ajv of its own would check the API schemas
    // against the meta-schema all over again only to compile a one-keyword schema with no $id.
    const validate = apiAjv().compile({ type: 'string', format });
    check = (value) => validate(value) === true;
    formats.set(format, check);
  }
  return check;
}
