import net from 'node:net';

/**
 * A port for a listener whose address must be known before it listens (the gateway's URL goes into
 * every service's PUBLIC_URL; the gateway proxies to the ingestion service's port, which stays the
 * same across its restarts). Asking the kernel for port 0 and closing it again is a race: the
 * kernel hands that same port to the next outgoing connection or port-0 listener of any process,
 * and in one CI run the gateway then failed with EADDRINUSE. So the port comes from below the
 * kernel's ephemeral range (ip_local_port_range starts at 32768), in a block of its own per Jest
 * worker, and is checked free on every interface, as the services listen.
 */
const PORT_BLOCK = 1000;
const PORT_BASE = 20000;
const PORT_BLOCKS = 12; // 20000-31999: below the ephemeral range
// Where in its block a process starts looking: apart from other Jest processes on the machine (a
// developer's second run), which number their workers from 1 too.
let nextPortOffset = Math.floor(Math.random() * PORT_BLOCK);

export async function freePort(): Promise<number> {
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  const base = PORT_BASE + ((worker - 1) % PORT_BLOCKS) * PORT_BLOCK;
  for (let tries = 0; tries < PORT_BLOCK; tries++) {
    const port = base + (nextPortOffset++ % PORT_BLOCK);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port in ${base}-${base + PORT_BLOCK - 1}`);
}

/**
 * The ports above freePort's blocks and below the ephemeral range, for the one suite that needs
 * several at fixed distances from each other (npm start's PORT_OFFSET, in
 * test/platform/start-all.e2e-spec.ts): neither another suite's services nor any connection can
 * take them between its check and its listen.
 */
export const SPARE_PORTS = { from: PORT_BASE + PORT_BLOCKS * PORT_BLOCK, to: 32_767 } as const;

/** Free on every interface, as the services listen. */
export function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, () => srv.close(() => resolve(true)));
  });
}
