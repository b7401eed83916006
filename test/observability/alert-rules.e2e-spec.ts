import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import YAML from 'yaml';
import { OperatorPort } from '@esim/platform';
import { ALL_SERVICES, startSystem, System } from '../support/system';

const root = path.resolve(__dirname, '../..');
const urlOf = (app: INestApplication) => `http://127.0.0.1:${OperatorPort.portOf(app) ?? (app.getHttpServer().address() as AddressInfo).port}`;

/** Series Prometheus makes itself, not any service: the scrape's own `up`. */
const PROMETHEUS_OWN = new Set(['up']);
const PROMQL_WORDS = new Set([
  'sum', 'min', 'max', 'avg', 'count', 'stddev', 'stdvar', 'topk', 'bottomk', 'quantile', 'count_values', 'group',
  'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset',
  'rate', 'irate', 'increase', 'delta', 'idelta', 'deriv', 'histogram_quantile', 'clamp_min', 'clamp_max', 'abs', 'absent',
  'avg_over_time', 'max_over_time', 'min_over_time', 'sum_over_time', 'count_over_time', 'label_replace', 'vector', 'scalar', 'time',
]);

/**
 * The metric names a PromQL expression reads: quoted strings, label matchers `{…}`, ranges `[…]`
 * and the label lists of `by (…)`/`without (…)`/`on (…)`/`ignoring (…)` removed, what is left
 * that is neither a PromQL word nor a number.
 */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/(?<![A-Za-z0-9_:])\d+(\.\d+)?([eE][+-]?\d+)?/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((w) => !PROMQL_WORDS.has(w) && !/^\d/.test(w) && !/^e\d+$/.test(w));
}

/** Every expression of deploy/observability: the PrometheusRule's rules and the dashboard's panel queries, with where each is. */
function deployedQueries(): { where: string; expr: string }[] {
  const rules = YAML.parse(fs.readFileSync(path.join(root, 'deploy/observability/prometheus-rules.yaml'), 'utf8')) as {
    spec: { groups: { name: string; rules: { alert?: string; record?: string; expr: string }[] }[] };
  };
  const fromRules = rules.spec.groups.flatMap((g) => g.rules.map((r) => ({ where: `${g.name}/${r.alert ?? r.record}`, expr: r.expr })));
  const dashboard = JSON.parse(fs.readFileSync(path.join(root, 'deploy/observability/grafana-dashboard.json'), 'utf8')) as {
    panels: { title: string; targets?: { expr: string }[] }[];
  };
  // A row (a heading that groups the panels under it) has no queries.
  const fromPanels = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}"`, expr: t.expr })));
  return [...fromRules, ...fromPanels];
}

/**
 * Alerts and dashboards that match the code: an alert on a metric no service exports never fires
 * (the runbook once suggested three such names). Every service is started on the real
 * infrastructure and scraped; each metric a rule or panel names must be one of the families they
 * expose (a histogram's `_bucket`, `_sum` and `_count` included), or a recording rule of the same file.
 */
describe('the PrometheusRule and the Grafana dashboard in deploy/observability', () => {
  let sys: System;
  const exported = new Set<string>();

  beforeAll(async () => {
    sys = await startSystem();
    for (const app of [sys.apps.gateway!, ...ALL_SERVICES.map((s) => sys.apps[s]!)]) {
      const text = await (await fetch(`${urlOf(app)}/metrics`)).text();
      for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
        exported.add(name);
        if (type === 'histogram' || type === 'summary') for (const suffix of ['_bucket', '_sum', '_count']) exported.add(`${name}${suffix}`);
      }
    }
  }, 180_000);
  afterAll(() => sys?.stop());

  it('name only metrics the services export', () => {
    const recorded = new Set(
      (YAML.parse(fs.readFileSync(path.join(root, 'deploy/observability/prometheus-rules.yaml'), 'utf8')) as { spec: { groups: { rules: { record?: string }[] }[] } }).spec.groups
        .flatMap((g) => g.rules.map((r) => r.record))
        .filter((r): r is string => !!r),
    );
    const queries = deployedQueries();
    expect(queries.length).toBeGreaterThan(30);
    // The provider calls' series exist from start-up, before any call, in the three services that make them.
    for (const name of ['provider_requests_total', 'provider_request_duration_seconds_bucket', 'provider_circuit_state']) {
      expect(exported.has(name)).toBe(true);
      expect(queries.some(({ expr }) => metricNames(expr).includes(name))).toBe(true);
    }
    const unknown = queries.flatMap(({ where, expr }) => metricNames(expr).filter((n) => !exported.has(n) && !recorded.has(n) && !PROMETHEUS_OWN.has(n)).map((n) => `${where}: ${n}`));
    expect(unknown).toEqual([]);
  });

  it('reads a metric name out of a query the way the check above relies on', () => {
    expect(metricNames('sum by (le, route) (rate(http_request_duration_seconds_bucket{service="gateway",route!="/api/events"}[5m]))')).toEqual(['http_request_duration_seconds_bucket']);
    expect(metricNames('max by (queue) (event_consumer_dead_letters) > 0')).toEqual(['event_consumer_dead_letters']);
    expect(metricNames('slo:request_errors:ratio_rate1h{slo="sign_in"} > (14.4 * 0.005)')).toEqual(['slo:request_errors:ratio_rate1h']);
    expect(metricNames('sum(rate(x_total[5m])) / clamp_min(sum(rate(x_total[5m])), 1e-9)')).toEqual(['x_total', 'x_total']);
  });

  it('give every SLO a fast and a slow burn-rate alert, and every alert a runbook entry that names it', () => {
    const runbook = fs.readFileSync(path.join(root, 'docs/runbook.md'), 'utf8');
    const rules = YAML.parse(fs.readFileSync(path.join(root, 'deploy/observability/prometheus-rules.yaml'), 'utf8')) as { spec: { groups: { rules: { alert?: string; labels?: { slo?: string } }[] }[] } };
    const alerts = rules.spec.groups.flatMap((g) => g.rules).filter((r) => r.alert);
    for (const slo of ['sign_in', 'postback_answer', 'redemption', 'purchase']) {
      expect(alerts.filter((a) => a.labels?.slo === slo).map((a) => a.alert!.replace(/^.*ErrorBudgetBurn/, ''))).toEqual(['Fast', 'Slow']);
    }
    expect(alerts.map((a) => a.alert!).filter((name) => !name.includes('ErrorBudgetBurn') && !runbook.includes(`\`${name}\``))).toEqual([]);
  });
});
