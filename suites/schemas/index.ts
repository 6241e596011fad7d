/**
 * The schemas suite: response bodies validated with AJV against schemas/api (or the config's replacements).
 * MUST checks test only SERVICE-SPEC's field tables (lib/spec-fields.ts); the full schemas, which also carry
 * PROFILE choices, are PROFILE checks.
 */
import type { Suite } from '../../src/conformance/registry.ts';
import { accountSchema, loginFields, loginSchema, oauthTokenSchema } from './credentials.ts';
import { listedMessageFields, listedMessageSchema, listEnvelopeFields, listEnvelopeSchema } from './list.ts';
import { campaignSchema, notFoundProblem } from './resources.ts';
import { distinctIds, timestampNearClock } from './send-identity.ts';
import { longFormAccepted, mediaTypesAccepted, sendResponseFields, sendResponseSchema, shortFormAccepted } from './send.ts';

export const schemasSuite: Suite = {
  name: 'schemas',
  title: 'Schemas: every resource validated with AJV',
  checks: [
    longFormAccepted,
    sendResponseFields,
    sendResponseSchema,
    distinctIds,
    timestampNearClock,
    shortFormAccepted,
    mediaTypesAccepted,
    // Listed messages first: they seed one, so the envelope checks see a list that is not empty.
    listedMessageFields,
    listedMessageSchema,
    listEnvelopeFields,
    listEnvelopeSchema,
    loginFields,
    loginSchema,
    accountSchema,
    oauthTokenSchema,
    campaignSchema,
    notFoundProblem,
  ],
};
