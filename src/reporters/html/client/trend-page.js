/*
 * trend.html: renders the embedded Trend (src/history/trend.ts). The verdict timeline comes first, newest run
 * first, so the latest verdict is the first thing read; then per label and scenario one chart per metric over the
 * runs, the change points marked in red and listed in text under the chart (nothing needs a hover to be read).
 */
(function (HR) {
  'use strict';
  var el = HR.el;
  var NAMES = { p50: 'p50 latency', p95: 'p95 latency', rps: 'throughput', errorRate: 'error rate' };
  var UNITS = { p50: 'ms', p95: 'ms', rps: 'req/s', errorRate: '%' };

  function fmt(metric, v) {
    if (v === null || v === undefined) return '—';
    return metric === 'errorRate' ? (Math.round(v * 10000) / 100) + ' %' : (Math.round(v * 100) / 100) + ' ' + UNITS[metric];
  }

  function who(run) {
    return run.commit ? run.runId + ' @ ' + run.commit.slice(0, 7) : run.runId;
  }

  function header(t) {
    return el('header', { class: 'banner tone-neutral' },
      el('h1', null, 'Trend: ' + t.runs + ' run' + (t.runs === 1 ? '' : 's')),
      el('p', null, el('code', null, t.dir), ' · generated ' + t.generatedAt),
      t.skipped.length ? el('div', { id: 'skipped' }, el('p', null, 'Skipped ' + t.skipped.length + ' file' + (t.skipped.length === 1 ? '' : 's') + ':'),
        el('ul', null, t.skipped.map(function (s) { return el('li', null, el('code', null, s.file), ': ' + s.why); }))) : null);
  }

  /** Newest first: the latest verdict of each label heads its table; rows where the verdict changed are marked. */
  function verdicts(t) {
    var box = el('section', { id: 'verdicts' }, el('h2', null, 'Verdict timeline (newest first)'));
    if (!t.verdicts.length) box.appendChild(el('p', { class: 'empty' }, 'no runs yet'));
    t.verdicts.forEach(function (v) {
      var latest = v.runs[v.runs.length - 1];
      box.appendChild(el('h3', null, 'label ' + v.label + ': latest ', el('span', { class: 'verdict-text', 'data-latest-verdict': latest.verdict }, latest.verdict)));
      var rows = v.runs.map(function (r, i) {
        var changed = v.changes.indexOf(i) >= 0;
        return [String(i + 1), r.startedAt, r.commit ? r.commit.slice(0, 12) : '—',
          el('span', { class: 'verdict-text', 'data-changed': changed ? 'yes' : null }, changed ? r.verdict + ' (changed from ' + v.runs[i - 1].verdict + ')' : r.verdict)];
      }).reverse();
      box.appendChild(HR.table(['run', 'started', 'commit', 'verdict'], rows, { 'data-label': v.label }));
    });
    return box;
  }

  function seriesSection(s) {
    var box = el('section', { class: 'card trend-series', 'data-scenario': s.scenario },
      el('h2', null, 'Scenario ' + s.scenario + ' — label ' + s.label + ' (' + s.runs.length + ' runs)'));
    var xs = s.runs.map(function (_, i) { return i + 1; });
    ['p50', 'p95', 'rps', 'errorRate'].forEach(function (m) {
      var values = s.values[m].map(function (v) { return v === null ? null : m === 'errorRate' ? v * 100 : v; });
      var marks = values.map(function () { return null; });
      s.changes[m].forEach(function (c) { marks[c.index] = values[c.index]; });
      HR.chart(box, { name: 'trend-' + m, title: NAMES[m] + ' per run', data: [xs, values, marks], xLabel: 'run', yLabel: UNITS[m],
        xFormat: function (v) { return Number.isInteger(v) ? String(v) : ''; },
        series: [{ label: NAMES[m] }, { label: 'change point', color: '#dc2626', pointsOnly: true }],
        legend: function (column) { var shown = column.filter(function (v) { return v !== null; }); return shown.length ? 'latest ' + (Math.round(shown[shown.length - 1] * 100) / 100) : ''; } });
      box.appendChild(el('p', { class: 'changes', 'data-metric': m }, s.changes[m].length
        ? 'changed at ' + s.changes[m].map(function (c) { return 'run ' + (c.index + 1) + ' (' + who(s.runs[c.index]) + '): ' + fmt(m, c.before) + ' → ' + fmt(m, c.after); }).join('; ')
        : s.runs.length < 6 ? 'too few runs to find change points (' + s.runs.length + '; needs 6)' : 'no change point'));
    });
    return box;
  }

  function render() {
    var t = HR.readData();
    var app = document.getElementById('app');
    app.textContent = '';
    [header(t), verdicts(t)].forEach(function (n) { app.appendChild(n); });
    t.series.forEach(function (s) { app.appendChild(seriesSection(s)); });
    document.body.setAttribute('data-ready', 'true');
  }

  render();
})(globalThis.HR = globalThis.HR || {});
