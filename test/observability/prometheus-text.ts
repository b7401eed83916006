/** One sample of Prometheus' text exposition format: `name{label="value",…} 12.5`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses a /metrics answer (comments skipped); throws on a line that is not a sample, so a malformed exposition fails the test. */
export function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((line) => {
      const m = LINE.exec(line);
      if (!m) throw new Error(`not a Prometheus sample: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, k, v] of (m[2] ?? '').matchAll(LABEL)) labels[k] = v.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      return { name: m[1], labels, value: Number(m[3]) };
    });
}

/** The samples named `name` whose labels include `labels`. */
export function samples(all: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The sum of the samples named `name` matching `labels` (0 when none). */
export function total(all: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples(all, name, labels).reduce((sum, s) => sum + s.value, 0);
}

/** GETs a /metrics endpoint and parses it. */
export async function scrape(baseUrl: string, init: RequestInit = {}): Promise<Sample[]> {
  const res = await fetch(`${baseUrl}/metrics`, init);
  if (res.status !== 200) throw new Error(`GET ${baseUrl}/metrics: ${res.status} ${await res.text()}`);
  if (!res.headers.get('content-type')?.startsWith('text/plain')) throw new Error(`GET ${baseUrl}/metrics: content type ${res.headers.get('content-type')}`);
  return parseMetrics(await res.text());
}
