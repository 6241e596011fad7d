/**
 * The inputs suite: for each POST operation, bodies generated from its effective request schema (the target's
 * replacement in api.schemas, else the built-in one) with a fixed seed — invalid ones, each breaking a rule with a
 * source, must be rejected (one check per rule family, so one fault cannot hide another); valid ones accepted; hostile ones never answered with a 5xx. See lib/generate-bodies.ts.
 */
import type { Suite } from '../../src/conformance/registry.ts';
import { campaignInvalid, hostileNoServerError, loginInvalid, sandboxInvalid, sendMessageInvalid, webhookInvalid } from './invalid-rejected.ts';
import { campaignValid, loginValid, longFormTextAccepted, sandboxValid, sendMessageValid, webhookValid } from './valid-accepted.ts';

export const inputsSuite: Suite = {
  name: 'inputs',
  title: 'Generated invalid and valid request bodies',
  checks: [
    longFormTextAccepted,
    sendMessageValid,
    ...sendMessageInvalid,
    campaignValid,
    ...campaignInvalid,
    loginValid,
    ...loginInvalid,
    sandboxValid,
    ...sandboxInvalid,
    webhookValid,
    ...webhookInvalid,
    hostileNoServerError,
  ],
};
