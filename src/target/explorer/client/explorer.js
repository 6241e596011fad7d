/*
 * The /sandbox API explorer: renders the target's OpenAPI document (operations by tag, parameters, request bodies
 * with their examples, responses with their example bodies, webhooks) and lets a user call the target from the
 * page ("Execute"). Plain browser JavaScript with no dependency and no build step: the page's Content-Security-
 * Policy allows only this file and the stylesheet, so every node is made with createElement and every text from
 * the document or a response is set with textContent (never parsed as markup).
 */
'use strict';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `el('div', {class: 'x'}, child, 'text')`: an element with attributes and children (strings become text nodes). */
function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

/** Follows a local `$ref` (`#/components/...`) in the document. */
function deref(doc, node) {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 16; hops++) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((at, part) => (at === undefined ? undefined : at[part]), doc);
  }
  return current ?? {};
}

const pretty = (value) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** The examples of a media type object as [name, summary, value]. */
function examplesOf(doc, media) {
  if (media && 'example' in media) return [['example', '', media.example]];
  return Object.entries(media?.examples ?? {}).map(([name, raw]) => {
    const example = deref(doc, raw);
    return [name, example.summary ?? '', example.value];
  });
}

function operationsOf(doc) {
  const operations = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      if (item[method]) operations.push({ path, method, operation: item[method], parameters: [...(item.parameters ?? []), ...(item[method].parameters ?? [])] });
    }
  }
  return operations;
}

/** The credential inputs at the top of the page, one per HTTP Bearer scheme. */
function renderCredentials(doc, config) {
  const inputs = new Map();
  const rows = [];
  for (const [name, raw] of Object.entries(doc.components?.securitySchemes ?? {})) {
    const scheme = deref(doc, raw);
    if (scheme.type === 'http' && scheme.scheme === 'bearer') {
      const input = el('input', { type: 'text', id: `credential-${name}`, name, autocomplete: 'off', spellcheck: 'false', placeholder: scheme.bearerFormat ?? 'token' });
      if (name === 'apiKey' && config.apiKey) input.value = config.apiKey;
      inputs.set(name, input);
      rows.push(el('label', { class: 'credential' }, el('span', { class: 'credential-name' }, name), input, el('span', { class: 'hint' }, scheme.description ?? '')));
    } else {
      rows.push(el('p', { class: 'hint' }, `${name} (${scheme.type}): not offered in this page; ${scheme.description ?? ''}`));
    }
  }
  return { section: el('section', { class: 'credentials' }, el('h2', {}, 'Credentials'), rows), inputs };
}

/** The Bearer token for an operation: the first of its security requirements whose credential is filled in. */
function bearerFor(operation, doc, inputs) {
  const requirements = operation.security ?? doc.security ?? [];
  for (const requirement of requirements) {
    const names = Object.keys(requirement);
    if (names.length === 0) return undefined;
    const filled = names.map((n) => inputs.get(n)?.value.trim()).find((v) => v);
    if (filled) return filled;
  }
  return undefined;
}

function renderParameters(doc, parameters) {
  const fields = [];
  const rows = parameters.map((raw) => {
    const parameter = deref(doc, raw);
    const schema = deref(doc, parameter.schema ?? {});
    const input = el('input', {
      type: 'text',
      class: 'parameter',
      name: parameter.name,
      dataset: { in: parameter.in },
      placeholder: schema.default !== undefined ? `default ${schema.default}` : (schema.format ?? schema.type ?? ''),
    });
    if (parameter.example !== undefined) input.value = String(parameter.example);
    fields.push({ parameter, input });
    return el('tr', {}, el('td', {}, el('code', {}, parameter.name), parameter.required ? el('span', { class: 'required' }, ' *') : null), el('td', {}, parameter.in), el('td', {}, input), el('td', { class: 'hint' }, parameter.description ?? ''));
  });
  const table = rows.length ? el('table', { class: 'parameters' }, el('thead', {}, el('tr', {}, el('th', {}, 'name'), el('th', {}, 'in'), el('th', {}, 'value'), el('th', {}, ''))), el('tbody', {}, rows)) : null;
  return { table, fields };
}

function renderRequestBody(doc, requestBody) {
  if (!requestBody) return { section: null };
  const body = deref(doc, requestBody);
  const types = Object.keys(body.content ?? {});
  const textarea = el('textarea', { class: 'body', rows: 8, spellcheck: 'false' });
  const select = el('select', { class: 'media-type' }, types.map((type) => el('option', { value: type }, type)));
  const fill = () => {
    const [first] = examplesOf(doc, body.content[select.value]);
    textarea.value = first ? pretty(first[2]) : '';
  };
  select.addEventListener('change', fill);
  fill();
  const examples = types.flatMap((type) => examplesOf(doc, body.content[type]).map(([name, summary, value]) => renderExample(`${type} · ${name}`, summary, value)));
  return {
    section: el('div', { class: 'request-body' }, el('h4', {}, 'Request body', body.required ? el('span', { class: 'required' }, ' *') : null), select, textarea, examples.length ? el('details', { class: 'examples' }, el('summary', {}, 'Examples'), examples) : null),
    textarea,
    select,
  };
}

function renderExample(title, summary, value) {
  return el('div', { class: 'example' }, el('div', { class: 'example-title' }, el('code', {}, title), summary ? ` — ${summary}` : ''), el('pre', {}, pretty(value)));
}

function renderResponses(doc, responses) {
  return el(
    'div',
    { class: 'responses' },
    el('h4', {}, 'Responses'),
    Object.entries(responses ?? {}).map(([status, raw]) => {
      const response = deref(doc, raw);
      const examples = Object.entries(response.content ?? {}).flatMap(([type, media]) => examplesOf(doc, media).map(([name, summary, value]) => renderExample(`${type} · ${name}`, summary, value)));
      const headers = Object.keys(response.headers ?? {});
      return el(
        'div',
        { class: 'response', dataset: { status } },
        el('div', { class: 'response-head' }, el('span', { class: `status status-${status[0]}` }, status), ' ', response.description ?? ''),
        headers.length ? el('div', { class: 'hint' }, `headers: ${headers.join(', ')}`) : null,
        examples,
      );
    }),
  );
}

/** Sends the operation's request from the page and shows the answer. */
async function execute(doc, entry, form, inputs, result) {
  const { path, method, operation } = entry;
  const headers = {};
  const query = new URLSearchParams();
  let url = path;
  for (const { parameter, input } of form.fields) {
    const value = input.value.trim();
    if (value === '') continue;
    if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(value));
    else if (parameter.in === 'query') query.set(parameter.name, value);
    else if (parameter.in === 'header') headers[parameter.name] = value;
  }
  const token = bearerFor(operation, doc, inputs);
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (form.textarea) {
    const type = form.select.value;
    headers['content-type'] = type;
    body = form.textarea.value;
    if (type === 'application/x-www-form-urlencoded') {
      // The example is shown as JSON; a form body is its fields, encoded.
      try {
        body = new URLSearchParams(Object.entries(JSON.parse(body)).map(([k, v]) => [k, String(v)])).toString();
      } catch {
        // Not JSON: sent as typed.
      }
    }
  }
  const server = (doc.servers?.[0]?.url ?? '/').replace(/\/$/, '');
  const target = `${server}${url}${query.toString() ? `?${query}` : ''}`;
  result.replaceChildren(el('div', { class: 'hint' }, `${method.toUpperCase()} ${target} …`));
  const started = performance.now();
  try {
    // A redirect (the consent POST's 302) is shown, not followed: its Location is the client's, not this target.
    const response = await fetch(target, { method: method.toUpperCase(), headers, body, redirect: 'manual', credentials: 'omit' });
    const ms = Math.round(performance.now() - started);
    if (response.type === 'opaqueredirect') {
      result.replaceChildren(el('div', { class: 'status-line' }, el('span', { class: 'status status-3' }, 'redirect'), ` not followed (${ms} ms)`));
      return;
    }
    const text = await response.text();
    let shown = text;
    try {
      shown = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON: shown as it came.
    }
    const interesting = [...response.headers].filter(([name]) => /^(content-type|location|retry-after|ratelimit|ratelimit-policy|x-ratelimit-.*|www-authenticate|idempotent-replayed)$/i.test(name));
    result.replaceChildren(
      ...[
      el('div', { class: 'status-line' }, el('span', { class: `status status-${String(response.status)[0]}` }, String(response.status)), ` ${response.statusText} (${ms} ms)`),
      interesting.length ? el('pre', { class: 'headers' }, interesting.map(([n, v]) => `${n}: ${v}`).join('\n')) : null,
      el('pre', { class: 'body' }, shown),
      ].filter((node) => node !== null),
    );
  } catch (error) {
    result.replaceChildren(el('div', { class: 'error' }, `request failed: ${error instanceof Error ? error.message : String(error)}`));
  }
}

function renderOperation(doc, entry, inputs) {
  const { path, method, operation } = entry;
  const parameters = renderParameters(doc, entry.parameters);
  const requestBody = renderRequestBody(doc, operation.requestBody);
  const result = el('div', { class: 'result', 'aria-live': 'polite' });
  const button = el('button', { type: 'button', class: 'execute' }, 'Execute');
  const form = { fields: parameters.fields, textarea: requestBody.textarea, select: requestBody.select };
  button.addEventListener('click', () => {
    button.disabled = true;
    execute(doc, entry, form, inputs, result).finally(() => (button.disabled = false));
  });
  const security = (operation.security ?? doc.security ?? []).map((r) => Object.keys(r).join(' + ') || 'none').join(' or ');
  return el(
    'details',
    { class: `operation method-${method}`, id: `op-${operation.operationId ?? `${method}-${path}`}` },
    el('summary', {}, el('span', { class: 'method' }, method.toUpperCase()), ' ', el('code', { class: 'path' }, path), ' ', el('span', { class: 'summary' }, operation.summary ?? '')),
    operation.description ? el('p', {}, operation.description) : null,
    el('p', { class: 'hint' }, `credentials: ${security || 'none'}`),
    parameters.table,
    requestBody.section,
    el('div', { class: 'actions' }, button),
    result,
    renderResponses(doc, operation.responses),
  );
}

function renderWebhooks(doc) {
  const events = Object.entries(doc.webhooks ?? {});
  if (events.length === 0) return null;
  return el(
    'section',
    { class: 'tag', id: 'webhooks' },
    el('h2', {}, 'Webhook deliveries'),
    el('p', { class: 'hint' }, 'What this target POSTs to a registered webhook URL.'),
    events.map(([type, item]) => {
      const operation = item.post ?? {};
      const body = deref(doc, operation.requestBody ?? {});
      const examples = Object.entries(body.content ?? {}).flatMap(([media, m]) => examplesOf(doc, m).map(([name, summary, value]) => renderExample(`${media} · ${name}`, summary, value)));
      return el('details', { class: 'operation method-post', id: `webhook-${type}` }, el('summary', {}, el('span', { class: 'method' }, 'EVENT'), ' ', el('code', { class: 'path' }, type), ' ', el('span', { class: 'summary' }, operation.summary ?? '')), operation.description ? el('p', {}, operation.description) : null, examples, renderResponses(doc, operation.responses));
    }),
  );
}

async function start() {
  const root = document.getElementById('explorer');
  try {
    const [config, doc] = await Promise.all(['/sandbox/config.json', '/sandbox/openapi.json'].map((u) => fetch(u, { credentials: 'omit' }).then((r) => r.json())));
    const credentials = renderCredentials(doc, config);
    const byTag = new Map((doc.tags ?? []).map((t) => [t.name, []]));
    for (const entry of operationsOf(doc)) {
      const tag = entry.operation.tags?.[0] ?? 'Other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push(entry);
    }
    const sections = [
      el('header', { class: 'info' }, el('h1', { class: 'title' }, doc.info?.title ?? 'API'), el('span', { class: 'version' }, doc.info?.version ?? ''), doc.info?.summary ? el('p', {}, doc.info.summary) : null, el('p', { class: 'hint' }, el('a', { href: '/sandbox/openapi.json' }, 'openapi.json'))),
      credentials.section,
      [...byTag].filter(([, entries]) => entries.length > 0).map(([tag, entries]) => el('section', { class: 'tag', id: `tag-${tag}` }, el('h2', {}, tag), entries.map((entry) => renderOperation(doc, entry, credentials.inputs)))),
      renderWebhooks(doc),
    ];
    root.replaceChildren(...sections.flat().filter((node) => node !== null));
    document.body.dataset.sandboxReady = 'true';
  } catch (error) {
    root.replaceChildren(el('p', { class: 'error' }, `The sandbox could not load: ${error instanceof Error ? error.message : String(error)}`));
  }
}

start();
