import net, { AddressInfo } from 'node:net';

/**
 * A TCP relay in front of a real server, to make it unreachable on demand (`cut()`) and reachable
 * again (`restore()`) without touching the server other tests share.
 */
export class TcpProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly clients = new Set<net.Socket>();
  port = 0;
  /** Connections accepted since the proxy was created (a process opening one connection counts 1). */
  accepted = 0;
  /** Connections dropped on arrival while refusing (each a client's attempt to reach the server). */
  refused = 0;
  private refusing = false;

  constructor(private readonly targetHost: string, private readonly targetPort: number) {}

  async start(port = 0): Promise<this> {
    this.server = net.createServer((client) => {
      if (this.refusing) {
        this.refused++;
        client.destroy();
        return;
      }
      const upstream = net.connect(this.targetPort, this.targetHost);
      this.accepted++;
      this.clients.add(client);
      this.sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.clients.delete(client);
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Connections open through the proxy right now. */
  get openConnections(): number {
    return this.clients.size;
  }

  /** Closes the listener and every open connection: clients see the server vanish. */
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.clients.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  /**
   * Keeps listening but drops every connection as it arrives (and the open ones now): the server
   * is unreachable, and `refused` counts the attempts to reach it, so a test can wait for a client
   * to have tried (and be waiting) rather than for time to pass. `accept()` lets them through again.
   */
  refuse(): void {
    this.refusing = true;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.clients.clear();
  }

  accept(): void {
    this.refusing = false;
  }

  async restore(): Promise<void> {
    await this.start(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}
