import type { Response } from 'express';
import type { LiveEndEvent, LiveEventType, LiveUserEvent } from '@esim/contracts';

/** A reader this far behind is gone in all but name (a stalled network): its stream is cut. */
const MAX_BUFFERED_BYTES = 256 * 1024;

/**
 * One open page's server-sent event stream: the signed-in user and session it belongs to, and
 * the answer it writes to. Writing after the page went away is a no-op.
 */
export class LiveStream {
  private closed = false;

  constructor(
    readonly userId: string,
    /** The session's opaque reference (sessionRef), as sessions-ended messages name it. */
    readonly sessionRef: string,
    /** The session's id, to see whether it still exists. */
    readonly sid: string,
    /** When the session's absolute lifetime runs out (ms since the epoch). */
    readonly expiresAt: number,
    private readonly res: Response,
    /** The client network it came from (clientNetwork), counted by the per-address cap. */
    readonly network = '',
  ) {
    res.on('close', () => (this.closed = true));
  }

  get open(): boolean {
    return !this.closed;
  }

  /** Sends the headers and tells the browser how long to wait before it reconnects on its own. */
  start(): void {
    this.res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      // Proxies (nginx) must pass each event on at once instead of buffering the answer.
      'X-Accel-Buffering': 'no',
    });
    this.write('retry: 3000\n\n');
  }

  send(event: 'user', data: LiveUserEvent): void;
  send(event: 'end', data: LiveEndEvent): void;
  send(event: LiveEventType, data: LiveUserEvent | LiveEndEvent): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** A comment line: keeps proxies and the browser from timing the connection out. */
  ping(): void {
    this.write(': ping\n\n');
  }

  /** Says why the stream ends (the page then stays closed) and ends it. */
  end(reason: LiveEndEvent['reason']): void {
    if (this.closed) return;
    this.send('end', { reason });
    this.close();
  }

  /** Ends the answer without a reason: the page reconnects (to this replica or another). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.res.end();
  }

  private write(chunk: string): void {
    if (this.closed) return;
    if (this.res.writableLength > MAX_BUFFERED_BYTES) {
      this.closed = true;
      this.res.destroy();
      return;
    }
    this.res.write(chunk);
  }
}
