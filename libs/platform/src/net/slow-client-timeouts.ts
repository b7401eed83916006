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
export function limitSlowClients(server: Server, limits: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs?: number }): void {
  server.headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  server.requestTimeout = limits.requestTimeoutMs;
  // How long an idle keep-alive connection stays open (Node's default: 5 s). Longer than the idle
  // timeout of the proxy in front (HTTP_KEEP_ALIVE_TIMEOUT_MS), so that the proxy always closes an
  // idle connection first: a server closing it first races the proxy's next request on it, which
  // then finds the socket closed with no answer (test/platform/keep-alive.e2e-spec.ts). An idle
  // connection waiting for its next request is not subject to headersTimeout.
  if (limits.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = 1_000;
}
