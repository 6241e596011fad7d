/**
 * The security suite: the OWASP API Security Top 10 (2023) risks a black-box run can provoke without harm —
 * SSRF at webhook registration (API7), mass assignment and excessive exposure (API3), internals in errors and
 * misconfiguration (API8). Every check cites its item (`Check.owasp`); the report's Security block also counts
 * the other suites' checks that cover an item (auth: API2, API5; ratelimit: API4). No check sends a message or
 * an inbound while one of its webhook registrations exists, and the harness connects only to loopback.
 */
import type { Suite } from '../../src/conformance/registry.ts';
import { massAssignmentNotTakenOver, massAssignmentRejected } from './mass-assignment.ts';
import { noInternalsInErrors, noSecretInReads } from './exposure.ts';
import { corsNoReflectedCredentials, jsonNoSniff } from './misconfiguration.ts';
import { SSRF_CHECKS } from './ssrf.ts';
import { redirectNotFollowed } from './ssrf-redirect.ts';

export const securitySuite: Suite = {
  name: 'security',
  title: 'Security: OWASP API Security Top 10 (2023) — SSRF, mass assignment, exposure, misconfiguration',
  checks: [...SSRF_CHECKS, redirectNotFollowed, massAssignmentNotTakenOver, massAssignmentRejected, noSecretInReads, noInternalsInErrors, corsNoReflectedCredentials, jsonNoSniff],
};
