/** Starts a test server where the project's rules put every one: 127.0.0.1, on a port the system picks. */
import type { AddressInfo, Server } from 'node:net';

/** Listens on 127.0.0.1 port 0 and resolves to the server's base URL (`http://127.0.0.1:PORT`). */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
