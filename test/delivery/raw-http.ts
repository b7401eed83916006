import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as they travelled (still compressed when Content-Encoding says so). */
  body: Buffer;
  /** The body decoded per its Content-Encoding. */
  decoded(): Buffer;
  text(): string;
}

/**
 * A GET that leaves the body as it came over the wire (fetch would decode it silently), so a test
 * can see which coding was sent and decode it itself.
 */
export function rawGet(baseUrl: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, baseUrl), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const decoded = () => (coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, decoded, text: () => decoded().toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
