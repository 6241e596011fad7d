// A tiny HTTP target for bench/load-engine's spacing test: answers `{}` at once and counts arrivals per 50 ms
// since the first one; GET /__buckets returns the counts (and resets). Its own process, so the count is taken
// on the receiving side, apart from every generator thread. Prints its port on the first line.
import { createServer } from 'node:http';

let first = 0;
let buckets = [];
const server = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/__buckets') {
    res.end(JSON.stringify(buckets));
    first = 0;
    buckets = [];
    return;
  }
  const now = performance.now();
  first ||= now;
  const i = Math.floor((now - first) / 50);
  while (buckets.length <= i) buckets.push(0);
  buckets[i]++;
  res.end('{}');
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
