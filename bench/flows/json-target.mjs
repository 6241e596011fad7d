// A tiny JSON target for bench/flows in its own process (its CPU is not the generator's): every answer is the
// same small JSON body with a token and an empty cursor, and POST /api/v1/write (the remote-write sink) answers
// 204 after reading the body. Prints its port on the first line.
import { createServer } from 'node:http';

const BODY = JSON.stringify({ token: 'tok-123', id: 'msg_1', data: [{ id: 'msg_1' }], pagination: { next: null, limit: 20 } });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/api/v1/write') {
      res.statusCode = 204;
      return res.end();
    }
    res.setHeader('content-type', 'application/json');
    res.end(BODY);
  });
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
