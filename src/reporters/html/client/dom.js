/*
 * Client helpers shared by report.html and compare.html (classic script, inlined by src/reporters/html/page.ts).
 * The one rule: text that came from a target only ever reaches the page as a text node or an attribute value set
 * with setAttribute. Nothing here parses markup (no innerHTML, no insertAdjacentHTML), so a `<script>` in a
 * response body is shown as the characters it is.
 */
(function (HR) {
  'use strict';

  /** el('div', { class: 'x' }, 'text', node, [more]) — strings become text nodes, never markup. */
  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (name) {
        var value = attrs[name];
        if (value === undefined || value === null || value === false) return;
        node.setAttribute(name, value === true ? '' : String(value));
      });
    }
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function append(node, child) {
    if (child === undefined || child === null || child === false) return;
    if (Array.isArray(child)) {
      child.forEach(function (c) { append(node, c); });
      return;
    }
    node.appendChild(typeof child === 'object' && child.nodeType ? child : document.createTextNode(String(child)));
  }

  /** A table from header labels and rows of cells (strings or nodes), in a horizontally scrollable box. */
  function table(headers, rows, attrs) {
    // Wrapped so a wide table scrolls inside its own box, never the page (390 px phones).
    return el('div', { class: 'table-wrap' }, el('table', attrs,
      el('thead', null, el('tr', null, headers.map(function (h) { return el('th', null, h); }))),
      el('tbody', null, rows.map(function (row) {
        return el('tr', null, row.map(function (cell) { return el('td', null, cell); }));
      }))));
  }

  /** The page's data: JSON in <script type="application/json" id="page-data">, never evaluated. */
  function readData() {
    return JSON.parse(document.getElementById('page-data').textContent);
  }

  HR.el = el;
  HR.table = table;
  HR.readData = readData;
})(globalThis.HR = globalThis.HR || {});
