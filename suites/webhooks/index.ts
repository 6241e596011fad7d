/**
 * The webhooks suite: the harness's own receiver is registered at the target, the target is made to notify
 * (an inbound message, a message that is delivered and read, one that fails), and every delivery is judged.
 * SERVICE-SPEC §6 only says notifications exist (MUST: they arrive); their shape, signature, retries and
 * management are PROFILE. Order matters: the deletion checks run last, because they delete the registration.
 */
import type { Suite } from '../../src/conformance/registry.ts';
import { everyStatusNotified, inboundNotified, statusNotified } from './arrival.ts';
import { nothingAfterDelete } from './deletion.ts';
import { createRegistersWebhook, deleteRemovesWebhook, deleteUnknownNotFound, listShowsWebhook } from './management.ts';
import { statusOrderConsistent } from './ordering.ts';
import { payloadsMatchSchema, signatureVerifies, timestampFresh } from './payloads.ts';
import { idStableAcrossRetries, idUniquePerEvent, retriedAfterFailure, retriesBackOff } from './retries.ts';

export const webhooksSuite: Suite = {
  name: 'webhooks',
  title: 'Webhooks: notifications for incoming messages and delivery status, signed, retried, deletable',
  checks: [
    createRegistersWebhook,
    listShowsWebhook,
    deleteUnknownNotFound,
    inboundNotified,
    statusNotified,
    everyStatusNotified,
    statusOrderConsistent,
    payloadsMatchSchema,
    signatureVerifies,
    timestampFresh,
    idUniquePerEvent,
    retriedAfterFailure,
    idStableAcrossRetries,
    retriesBackOff,
    deleteRemovesWebhook,
    nothingAfterDelete,
  ],
};
