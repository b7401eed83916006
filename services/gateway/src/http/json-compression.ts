import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/** Below this many bytes compressing costs more time than the transfer saves. */
export const JSON_COMPRESSION_THRESHOLD = 1024;

/**
 * Compresses JSON answers of 1 KB and more (brotli or gzip, by Accept-Encoding, with Vary). Only
 * JSON: an event stream (text/event-stream) must reach the browser event by event, which a
 * compressor's buffering would hold back, and everything else the API sends is small or binary.
 */
export function jsonCompression(): RequestHandler {
  return compression({
    threshold: JSON_COMPRESSION_THRESHOLD,
    filter: (req: Request, res: Response) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(String(res.getHeader('Content-Type') ?? '')) && compression.filter(req, res),
  });
}
