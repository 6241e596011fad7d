// A tiny HTTP target for bench/load-engine's stall test: answers `{}` at once, except that every 2 s its
// event loop is blocked for 200 ms (as a GC pause or a synchronous hiccup would). Run as its own process so
// the stall does not block the load generator. Prints its port on the first line.
import { createServer } from 'node:http';

const STALL_MS = Number(process.env.STALL_MS ?? 200);
const EVERY_MS = Number(process.env.EVERY_MS ?? 2000);
const server = createServer((_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end('{}');
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
  setInterval(() => {
    const until = Date.now() + STALL_MS;
    while (Date.now() < until) {
      // busy: nothing is answered meanwhile
    }
  }, EVERY_MS);
});
process.on('SIGTERM', () => process.exit(0));
