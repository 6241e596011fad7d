/** The rate-limit probe: bounded traffic that discovers a target's real limit and holds its headers to it. */
export { probeRateLimit } from './probe.ts';
export { estimate } from './estimate.ts';
export { analyseRecovery } from './recovery.ts';
export { claimedPolicy, deviation } from './claims.ts';
export { formatProbe, matchLine } from './verdict.ts';
export { describePart, matchPolicy, type PartMatch, type PolicyMatch } from './policy-match.ts';
export type * from './types.ts';
export { CLAIM_TOLERANCE, judgeClaim, observedQuota, observedWindow, type Judgement, type Observed } from './judge.ts';
