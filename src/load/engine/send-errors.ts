/**
 * The load engines' error codes of their own, and the code of any transport error (undici's, Node's socket
 * errors, the h1 sender's) as a report names it. The requests themselves are sent by h1/sender.ts (the mix) and
 * by undici in a flow's steps (flow/iteration.ts).
 */

/** The error code of a request cut because the run was interrupted (SIGINT/SIGTERM, abortOnFail). */
export const ABORTED = 'HARNESS_ABORTED';

export function errorCode(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.name === 'string' && e.name !== 'Error') return e.name;
  return typeof e?.message === 'string' ? e.message.slice(0, 60) : 'unknown';
}
