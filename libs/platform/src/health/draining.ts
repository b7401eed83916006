/**
 * Whether the process is stopping: from the first SIGTERM its readiness answers 503 `draining`
 * (HealthController), so a balancer that follows readiness (a Kubernetes Service's endpoints,
 * scripts/rolling-restart-drill.mjs) stops sending it new requests while it still serves them
 * (GracefulStop, libs/platform/src/bootstrap/graceful-stop.ts).
 */
export class Draining {
  private started?: number;

  begin(): void {
    this.started ??= Date.now();
  }

  get active(): boolean {
    return this.started !== undefined;
  }
}
