/**
 * The credentials `harness probe ratelimit --credential` accepts. Apart from the probe job, so the flag's help can
 * name them without loading the HTTP client and the probe engine.
 */

/** Credential names `--credential` accepts: the API-key members of `credentials`, or `none` (per-address limit). */
export const PROBE_CREDENTIALS = ['apiKey', 'secondKey', 'restrictedKey', 'loadKey', 'none'] as const;
export type ProbeCredentialName = (typeof PROBE_CREDENTIALS)[number];
