/**
 * The inputs suite: for each POST operation, bodies generated from its request schema with a fixed seed —
 * invalid ones must be rejected (never a 5xx), valid ones accepted. See generate-bodies.ts.
 */
import type { Suite } from '../../src/conformance/registry.ts';
import { campaignInvalid, loginInvalid, sandboxInvalid, sendMessageInvalid, webhookInvalid } from './invalid-rejected.ts';
import { campaignValid, loginValid, longFormTextAccepted, sandboxValid, sendMessageValid, webhookValid } from './valid-accepted.ts';

export const inputsSuite: Suite = {
  name: 'inputs',
  title: 'Generated invalid and valid request bodies',
  checks: [
    longFormTextAccepted,
    sendMessageValid,
    sendMessageInvalid,
    campaignValid,
    campaignInvalid,
    loginValid,
    loginInvalid,
    sandboxValid,
    sandboxInvalid,
    webhookValid,
    webhookInvalid,
  ],
};
