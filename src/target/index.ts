/** The reference target's public API. */
export { buildApp, type BuiltApp } from './app.ts';
export { startReferenceTarget, type StartOptions, type StartedTarget } from './start.ts';
export { credentialBanner, type CredentialBanner } from './banner.ts';
export { resolveOptions, DEFAULTS, type ResolvedOptions } from './options.ts';
export { TargetEventBus, type TargetEvents, type TargetEventType } from './events.ts';
export type * from './model.ts';
export * from './types.ts';
