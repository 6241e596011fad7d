/**
 * bench/reference-target: how much of a bare Fastify route's throughput the reference target keeps.
 *
 * The autocannon CLI runs in its own process (50 connections, 10 s by default) against routes started in this
 * process, one after another, in the same run: a bare Fastify route answering a constant JSON body (the peer),
 * the reference target's send (POST /v1/whatsapp/messages) and its list (GET, 20 items a page). Each gets a 2 s
 * warm-up first. Prints requests/s and the ratios; goal: send ≥ 0.5×, list ≥ 0.6× the bare route.
 * For context it also measures a bare Fastify POST that parses the same JSON body and answers a constant 201:
 * the most any send implementation on Fastify can reach on this machine.
 *
 *   npm run bench:reference-target                # 50 connections, 10 s
 *   npm run bench:reference-target -- --duration 5 --connections 20
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { startReferenceTarget } from '../../src/target/index.ts';

const run = promisify(execFile);
const args = new Map(process.argv.slice(2).flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1] ?? '']] : [])));
const DURATION_S = Number(args.get('duration') ?? 10);
const CONNECTIONS = Number(args.get('connections') ?? 50);
const WARMUP_S = 2;
const autocannonBin = join(dirname(createRequire(import.meta.url).resolve('autocannon/package.json')), 'autocannon.js');

interface Route {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

interface Measured {
  name: string;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
}

async function autocannon(route: Route, durationS: number): Promise<Measured> {
  const argv = [autocannonBin, '--json', '-c', String(CONNECTIONS), '-d', String(durationS), '-m', route.method ?? 'GET'];
  for (const [name, value] of Object.entries(route.headers ?? {})) argv.push('-H', `${name}=${value}`);
  if (route.body) argv.push('-b', route.body);
  argv.push(route.url);
  const { stdout } = await run(process.execPath, argv, { maxBuffer: 64 * 1024 * 1024 });
  const result = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return {
    name: route.name,
    requestsPerSecond: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function main(): Promise<void> {
  const bare = Fastify({ logger: false });
  const constant = { id: 'msg_0123456789abcdef', status: 'sent', timestamp: '2026-01-01T00:00:00.000Z' };
  bare.get('/bare', async () => constant);
  bare.post('/bare', async (_request, reply) => reply.code(201).send(constant));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareAddress = bare.server.address() as { port: number };

  const target = await startReferenceTarget({ host: '127.0.0.1', port: 0 });
  const auth = { authorization: `Bearer ${target.credentials.apiKeys.load}` };
  // Give the list something to page through: 100 inbound messages, 20 per page.
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${target.baseUrl}/v1/sandbox/inbound`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ from: `1555000${String(i).padStart(4, '0')}`, text: `seed ${i}` }),
    });
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
  }

  const sendBody = JSON.stringify({ to: '15551234567', type: 'text', text: { body: 'benchmark' } });
  const routes: Route[] = [
    { name: 'bare fastify', url: `http://127.0.0.1:${bareAddress.port}/bare` },
    { name: 'reference send', url: `${target.baseUrl}/v1/whatsapp/messages`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: sendBody },
    { name: 'reference list', url: `${target.baseUrl}/v1/whatsapp/messages?limit=20`, headers: auth },
    { name: 'bare POST+JSON', url: `http://127.0.0.1:${bareAddress.port}/bare`, method: 'POST', headers: { 'content-type': 'application/json' }, body: sendBody },
  ];

  const results: Measured[] = [];
  try {
    for (const route of routes) {
      await autocannon(route, WARMUP_S);
      const measured = await autocannon(route, DURATION_S);
      results.push(measured);
      process.stdout.write(`${measured.name.padEnd(16)} ${String(measured.requestsPerSecond).padStart(7)} req/s  p50 ${measured.latencyP50Ms} ms  p99 ${measured.latencyP99Ms} ms  non-2xx ${measured.non2xx}  errors ${measured.errors}\n`);
    }
  } finally {
    await target.close();
    await bare.close();
  }

  const [peer, send, list, barePost] = results as [Measured, Measured, Measured, Measured];
  const ratio = (m: Measured) => m.requestsPerSecond / peer.requestsPerSecond;
  const ratios = { send: ratio(send), list: ratio(list), barePost: ratio(barePost) };
  process.stdout.write(
    `\nratios vs bare fastify (${CONNECTIONS} connections, ${DURATION_S} s): send ${ratios.send.toFixed(2)}× (goal ≥ 0.50×), list ${ratios.list.toFixed(2)}× (goal ≥ 0.60×)\n`
      + `context: bare POST+JSON ${ratios.barePost.toFixed(2)}× (ceiling for any send on Fastify); send is ${(send.requestsPerSecond / barePost.requestsPerSecond).toFixed(2)}× of it\n`,
  );
  const failed = [send, list].filter((m) => m.non2xx > 0 || m.errors > 0);
  if (failed.length > 0) process.stdout.write(`warning: non-2xx answers or errors in ${failed.map((m) => m.name).join(', ')}: the numbers are not comparable\n`);

  const outDir = new URL('./results/', import.meta.url);
  await mkdir(outDir, { recursive: true });
  const record = { date: new Date().toISOString(), node: process.version, connections: CONNECTIONS, durationS: DURATION_S, results, ratios };
  await writeFile(new URL('latest.json', outDir), `${JSON.stringify(record, null, 2)}\n`);
}

await main();
