// A tiny HTTP target for bench/load-engine's spacing test: answers `{}` at once and notes when each request
// arrived (performance.now, ms); GET /__times returns those times (and forgets them). Its own process, so
// arrivals are timed on the receiving side, apart from every generator thread. Prints its port on the first line.
import { createServer } from 'node:http';

let times = [];
const server = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/__times') {
    res.end(JSON.stringify(times));
    times = [];
    return;
  }
  times.push(performance.now());
  res.end('{}');
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
