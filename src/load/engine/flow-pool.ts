/**
 * The undici Pool a flow's steps go through (they read bodies for their captures; request mixes go through the h1
 * sender, which drops them). Loaded only when a scenario has a flow: loading undici costs each thread noticeable
 * CPU (docs/performance.md), and every load worker thread would pay that at its start for nothing.
 */
import type { Pool } from 'undici';

export async function flowPool(origin: string, connections: number): Promise<Pool> {
  const { Pool } = await import('undici');
  return new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
}
