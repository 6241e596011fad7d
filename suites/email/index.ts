/** The email suite: campaigns created, refused, read back (PROFILE Email campaigns; SERVICE-SPEC §2.5, §4). */
import type { Suite } from '../../src/conformance/registry.ts';
import { createAccepted, createEchoesRequest, createStatusAndBody, duplicatesRemoved, futureScheduleScheduled, noScheduleDraft } from './create.ts';
import { readSameObject, unknownIdNotFound } from './read.ts';
import { badAddressRejected, emptyRecipientsRejected, missingFieldRejected, pastScheduleRejected } from './validation.ts';

export const emailSuite: Suite = {
  name: 'email',
  title: 'Email campaigns',
  checks: [
    createAccepted,
    createStatusAndBody,
    createEchoesRequest,
    duplicatesRemoved,
    futureScheduleScheduled,
    noScheduleDraft,
    missingFieldRejected,
    badAddressRejected,
    emptyRecipientsRejected,
    pastScheduleRejected,
    readSameObject,
    unknownIdNotFound,
  ],
};
