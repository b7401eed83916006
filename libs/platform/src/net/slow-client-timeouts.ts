import type { Server } from 'node:http';

/**
 * Bounds how long a client may take to send a request, on the whole server: its headers within
 * `headersTimeoutMs`, all of it within `requestTimeoutMs` (Node's own server.headersTimeout and
 * requestTimeout, answered 408 and closed). Node checks them every connectionsCheckingInterval,
 * 30 s by default, which let a connection with half its headers stay open 30 s past its deadline;
 * checked every second instead. Call before the server listens: Node starts the check then, with
 * the server's connectionsCheckingInterval (a createServer option, read from the server object;
 * the test of slow senders shows it taking effect).
 */
export function limitSlowClients(server: Server, limits: { headersTimeoutMs: number; requestTimeoutMs: number }): void {
  server.headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  server.requestTimeout = limits.requestTimeoutMs;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = 1_000;
}
