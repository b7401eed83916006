import type { OpenApiDocument } from '@esim/contracts';

const escape = (value: unknown) =>
  String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** Markdown's `code` spans as <code>, the rest as text. */
const prose = (value: unknown) => escape(value).replace(/`([^`]+)`/g, '<code>$1</code>');

type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  'x-auth': string;
  parameters?: Array<{ name: string; in: string; required: boolean; description?: string; schema: unknown }>;
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
};

const schemaBlock = (label: string, schema: unknown) =>
  `<details><summary>${escape(label)}</summary><pre>${escape(JSON.stringify(schema, null, 2))}</pre></details>`;

function renderOperation(method: string, path: string, op: Operation): string {
  const params = (op.parameters ?? [])
    .map((p) => `<li><code>${escape(p.name)}</code> (${escape(p.in)}${p.required ? ', required' : ''})${p.description ? ` — ${prose(p.description)}` : ''} ${schemaBlock('schema', p.schema)}</li>`)
    .join('');
  const body = Object.entries(op.requestBody?.content ?? {})
    .map(([type, c]) => schemaBlock(`request body: ${type}`, c.schema ?? {}))
    .join('');
  const responses = Object.entries(op.responses)
    .map(
      ([status, r]) =>
        `<li><strong>${escape(status)}</strong> ${prose(r.description)}${Object.entries(r.content ?? {})
          .map(([type, c]) => schemaBlock(type, c.schema ?? {}))
          .join('')}</li>`,
    )
    .join('');
  return `<section id="${escape(op.operationId)}">
<h3><span class="method ${escape(method)}">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code></h3>
<p>${prose(op.summary)} <span class="auth">auth: ${escape(op['x-auth'])}</span></p>
${op.description ? `<p>${prose(op.description)}</p>` : ''}
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}${body}
<h4>Responses</h4><ul>${responses}</ul>
</section>`;
}

/**
 * The reference as one page with no script (the gateway's CSP allows none inline, and nothing is
 * loaded from elsewhere): operations by tag, each schema folded in a <details>.
 */
export function renderOpenApiPage(doc: OpenApiDocument, jsonHref: string): string {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op: op as unknown as Operation })),
  );
  const sections = doc.tags
    .map(({ name }) => {
      const ofTag = operations.filter((o) => o.op.tags.includes(name));
      const index = ofTag.map((o) => `<li><a href="#${escape(o.op.operationId)}">${escape(o.method.toUpperCase())} ${escape(o.path)}</a></li>`).join('');
      return `<h2 id="tag-${escape(name)}">${escape(name)}</h2><ul class="index">${index}</ul>${ofTag.map((o) => renderOperation(o.method, o.path, o.op)).join('\n')}`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)} ${escape(doc.info.version)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:0 auto;padding:1rem;color:#1a1a1a}
code,pre{font:13px ui-monospace,monospace}pre{background:#f4f4f4;padding:.5rem;overflow:auto}
section{border-top:1px solid #ddd;padding:.5rem 0}.method{display:inline-block;min-width:4.5em;padding:0 .3em;color:#fff;border-radius:3px;text-align:center}
.get{background:#2f6f3e}.post{background:#1f5a99}.patch{background:#8a5a00}.put{background:#6b3fa0}.delete{background:#a32020}
.auth{color:#666;font-size:13px}ul.index{columns:2}
</style></head><body>
<h1>${escape(doc.info.title)} <small>${escape(doc.info.version)}</small></h1>
<p>OpenAPI ${escape(doc.openapi)} document: <a href="${escape(jsonHref)}">${escape(jsonHref)}</a> (load it into any OpenAPI tool).</p>
<pre>${escape(doc.info.description)}</pre>
<nav><ul>${doc.tags.map(({ name }) => `<li><a href="#tag-${escape(name)}">${escape(name)}</a></li>`).join('')}</ul></nav>
${sections}
</body></html>
`;
}
