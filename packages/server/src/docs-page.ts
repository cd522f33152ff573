import { PATHS } from '@openmates/contract';
import openapi from '@openmates/contract/openapi.json' with { type: 'json' };

// The API reference at /docs is this project's own page, rendered once (at the first request) from the OpenAPI document the
// server answers at /v1/openapi.json (ADR 0094): plain HTML and one stylesheet, no script, no
// dependency, nothing fetched from elsewhere, so it works offline and under a CSP that allows no
// script at all. Every operation and every component schema gets a section; a schema reference is a
// link to its section. Descriptions are plain text whose `backticks` become code.

/** The parts of a JSON Schema (as the contract's generator writes them) that the page shows. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  discriminator?: { propertyName: string };
  [constraint: string]: unknown;
}

interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, unknown>[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, { description?: string }>;
      content?: Record<string, { schema?: Schema }>;
    }
  >;
}

interface Document {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const doc = openapi as unknown as Document;

/** The constraints shown beside a field's type, in this order. */
const CONSTRAINTS = [
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'format',
  'default',
  'example',
];

const html = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** Plain text with `code spans`. */
const prose = (text = ''): string => html(text).replace(/`([^`]+)`/g, (_, code: string) => `<code>${code}</code>`);

const refName = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);
const schemaLink = (name: string): string => `<a href="#schema-${html(name)}"><code>${html(name)}</code></a>`;

/** A schema's type in a few words: a link for a reference, `array of …`, `A | B`, or its enum. */
function typeOf(schema: Schema): string {
  if (schema.$ref) return schemaLink(refName(schema.$ref));
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map(typeOf).join(' | ');
  if (schema.allOf) return schema.allOf.map(typeOf).join(' &amp; ');
  if (schema.enum) return schema.enum.map((value) => `<code>${html(JSON.stringify(value))}</code>`).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  return types
    .map((type) => (type === 'array' && schema.items ? `array of ${typeOf(schema.items)}` : html(type)))
    .join(' | ');
}

function constraints(schema: Schema): string {
  const shown = CONSTRAINTS.filter((key) => schema[key] !== undefined).map(
    (key) => `${key} <code>${html(JSON.stringify(schema[key]))}</code>`,
  );
  return shown.length ? `<div class="constraints">${shown.join(', ')}</div>` : '';
}

function schemaSection(name: string, schema: Schema): string {
  const parts = [`<section id="schema-${html(name)}"><h3>${html(name)}</h3>`];
  if (schema.description) parts.push(`<p>${prose(schema.description)}</p>`);
  if (schema.properties) {
    const required = new Set(schema.required ?? []);
    const rows = Object.entries(schema.properties).map(
      ([field, property]) =>
        `<tr><td><code>${html(field)}</code>${required.has(field) ? ' <span class="required">required</span>' : ''}</td><td>${typeOf(property)}${constraints(property)}</td><td>${prose(property.description)}</td></tr>`,
    );
    parts.push(
      `<table><thead><tr><th>field</th><th>type</th><th>meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    );
    if (schema.additionalProperties === false) parts.push('<p class="note">Other fields are refused.</p>');
  } else {
    parts.push(`<p>Type: ${typeOf(schema)}</p>${constraints(schema)}`);
  }
  if (schema.discriminator)
    parts.push(`<p class="note">Told apart by <code>${html(schema.discriminator.propertyName)}</code>.</p>`);
  parts.push('</section>');
  return parts.join('\n');
}

const content = (body: Record<string, { schema?: Schema }> = {}): string =>
  Object.entries(body)
    .map(([type, { schema }]) => `<code>${html(type)}</code>${schema ? `: ${typeOf(schema)}` : ''}`)
    .join('<br>');

function operationSection(method: string, path: string, op: Operation): string {
  const open = op.security?.some((requirement) => Object.keys(requirement).length === 0) ?? true;
  const keyed = op.security?.some((requirement) => Object.keys(requirement).length > 0) ?? false;
  const auth = !keyed
    ? 'Public.'
    : open
      ? 'A bearer API key when the server is configured with keys.'
      : 'A bearer API key.';
  const parts = [
    `<section id="op-${html(op.operationId)}"><h3><span class="method">${method.toUpperCase()}</span> <code>${html(path)}</code></h3>`,
    `<p><strong>${prose(op.summary)}</strong></p>`,
    `<p>${prose(op.description)}</p>`,
    `<p class="note">${auth}</p>`,
  ];
  if (op.requestBody) parts.push(`<h4>Request body</h4><p>${content(op.requestBody.content)}</p>`);
  const rows = Object.entries(op.responses).map(
    ([status, response]) =>
      `<tr><td><code>${html(status)}</code></td><td>${prose(response.description)}${
        response.headers
          ? `<dl class="constraints">${Object.entries(response.headers)
              .map(([name, header]) => `<dt><code>${html(name)}</code></dt><dd>${prose(header.description)}</dd>`)
              .join('')}</dl>`
          : ''
      }</td><td>${content(response.content)}</td></tr>`,
  );
  parts.push(
    `<h4>Responses</h4><table><thead><tr><th>status</th><th>meaning</th><th>body</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`,
  );
  return parts.join('\n');
}

function render(): string {
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method, path, op })),
  );
  const tags = doc.tags ?? [];
  const groups = tags
    .map((tag) => ({ tag, ops: operations.filter(({ op }) => op.tags?.[0] === tag.name) }))
    .filter(({ ops }) => ops.length > 0);
  const contents = groups
    .map(
      ({ tag, ops }) =>
        `<li>${html(tag.name)}<ul>${ops.map(({ method, path, op }) => `<li><a href="#op-${html(op.operationId)}">${method.toUpperCase()} ${html(path)}</a></li>`).join('')}</ul></li>`,
    )
    .join('');
  const schemas = Object.entries(doc.components.schemas);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${html(doc.info.title)}: API reference</title>
<link rel="stylesheet" href="${PATHS.docs}/assets/docs.css">
</head>
<body>
<header><h1>${html(doc.info.title)}: API reference</h1>
<p>${prose(doc.info.description)}</p>
<p class="note">API version ${html(doc.info.version)}. The OpenAPI 3.1 document: <a href="${PATHS.openapi}"><code>${PATHS.openapi}</code></a>.</p></header>
<nav aria-label="Contents"><ul>${contents}<li><a href="#schemas">schemas</a></li></ul></nav>
<main>
${groups
  .map(
    ({ tag, ops }) =>
      `<h2 id="tag-${html(tag.name)}">${html(tag.name)}</h2>\n<p>${prose(tag.description)}</p>\n${ops.map(({ method, path, op }) => operationSection(method, path, op)).join('\n')}`,
  )
  .join('\n')}
<h2 id="schemas">schemas</h2>
${schemas.map(([name, schema]) => schemaSection(name, schema)).join('\n')}
</main>
</body>
</html>
`;
}

const STYLE = `:root { font: 16px/1.5 system-ui, sans-serif; color-scheme: light dark; }
body { max-width: 64rem; margin: 0 auto; padding: 1rem; }
code { font: 0.9em ui-monospace, monospace; }
h3 { margin-top: 2rem; border-top: 1px solid color-mix(in srgb, currentColor 20%, transparent); padding-top: 1rem; }
.method { font: 0.8em ui-monospace, monospace; padding: 0.1em 0.4em; border: 1px solid currentColor; border-radius: 0.3em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 0.3rem 0.5rem; border-bottom: 1px solid color-mix(in srgb, currentColor 15%, transparent); }
.note, .constraints { font-size: 0.9em; }
.required { font-size: 0.8em; font-weight: 600; }
`;

/** Rendered on the first request, so a server that is never asked for it never pays for it. */
let page: string | undefined;

const CSP =
  "default-src 'none'; style-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** One file of the page: its status, headers and text. */
export interface DocsFile {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Answers `/docs` and `/docs/assets/docs.css`, or undefined for any other path. */
export function docsResponse(pathname: string): DocsFile | undefined {
  const headers = {
    'content-security-policy': CSP,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
  if (pathname === PATHS.docs || pathname === `${PATHS.docs}/`) {
    page ??= render();
    return { status: 200, headers: { ...headers, 'content-type': 'text/html; charset=utf-8' }, body: page };
  }
  if (pathname === `${PATHS.docs}/assets/docs.css`)
    return {
      status: 200,
      headers: { ...headers, 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=3600' },
      body: STYLE,
    };
  return undefined;
}
