/** A loopback port that nothing listens on, for tests of a target that cannot be reached. */
import { createServer } from 'node:net';

/** A port that was just free and is closed now: connecting to it on 127.0.0.1 is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
