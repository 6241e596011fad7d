/*
 * compare.html: renders the embedded Comparison (compare.json's shape, src/compare/model.ts): the gate, runs
 * side by side, checks whose status changed, per scenario the metrics with deltas and the HDR curves of every
 * run on one chart, rate limits, budgets.
 */
(function (HR) {
  'use strict';
  var el = HR.el;
  var S = HR.series;

  function labels(c) {
    return c.runs.map(function (r, i) { return i === c.baseline ? r.label + ' (baseline)' : r.label; });
  }

  /** A run's readable name: start time and target beside its id ("06:15:02 · 127.0.0.1:8080"). */
  function runName(r) {
    var time = typeof r.startedAt === 'string' ? r.startedAt.replace(/^\d{4}-\d{2}-\d{2}T/, '').replace(/\.\d+Z$|Z$/, '') : '';
    var host = r.target ? String(r.target).replace(/^https?:\/\//, '') : '';
    return [time, host].filter(Boolean).join(' · ');
  }

  /** Chart categories: each run's start time, baseline marked, so the axis says which run is which. */
  function categories(c, present) {
    // Start times keep tick labels short enough for a phone; the Runs table has each run's target and file.
    var names = present.map(function (x) { var r = c.runs[x.index]; return (x.index === c.baseline ? 'base ' : '') + (runName(r).split(' · ')[0] || r.label); });
    // Two runs started the same second against the same target: number them so each category stays distinct.
    return names.map(function (n, i) { return names.indexOf(n) !== i || names.lastIndexOf(n) !== i ? n + ' #' + (present[i].index + 1) : n; });
  }

  /** Metrics whose growth is bad (latency, errors, 429s, dropped) vs whose drop is bad (throughput). */
  var WORSE_WHEN_LOWER = { rps: true };
  function deltaCell(text, key, value, base) {
    if (value === undefined || value === null || base === undefined || base === null || value === base) return text;
    var worse = WORSE_WHEN_LOWER[key] ? value < base : value > base;
    var d = base === 0 ? Infinity : Math.abs((value - base) / base);
    // Colour only changes beyond 5 %: smaller ones are within run-to-run noise and would paint every cell.
    if (d < 0.05) return text;
    return el('span', { class: worse ? 'regressed' : 'improved', 'data-delta': worse ? 'worse' : 'better' }, text);
  }

  function header(c) {
    var gate = c.gate === 'none' ? 'no budgets given' : c.gate === 'passed' ? 'gate passed' : c.gate === 'inconclusive' ? 'gate inconclusive (undecided budgets, not a failure; exit 0)' : 'gate FAILED';
    var exceeded = c.budgets.filter(function (b) { return b.status === 'exceeded'; });
    return el('header', { class: 'banner gate-' + c.gate, 'data-gate': c.gate },
      el('h1', null, 'Compare: ' + c.runs.length + ' runs — ' + gate),
      el('p', null, 'baseline ', el('code', null, c.runs[c.baseline].label), ' · generated ' + c.generatedAt),
      exceeded.length ? el('ul', null, exceeded.map(function (b) { return el('li', null, b.detail); })) : null);
  }

  function runs(c) {
    var rows = [['verdict'].concat(c.runs.map(function (r) { return el('span', { class: 'verdict-text' }, r.verdict); }))];
    ['passed', 'failed', 'skipped', 'errors'].forEach(function (k) { rows.push([k].concat(c.runs.map(function (r) { return String(r.summary[k]); }))); });
    rows.push(['started · target'].concat(c.runs.map(function (r) { return runName(r) || '—'; })));
    rows.push(['file'].concat(c.runs.map(function (r) { return el('code', null, r.file); })));
    return el('section', { id: 'runs' }, el('h2', null, 'Runs'), HR.table([''].concat(labels(c)), rows));
  }

  function changes(c) {
    var box = el('section', { id: 'changes' }, el('h2', null, 'Checks whose status changed'));
    if (!c.checkChanges.length) box.appendChild(el('p', null, 'none: every check has the same status in every run'));
    else box.appendChild(HR.table(['check', 'level'].concat(labels(c)), c.checkChanges.map(function (ch) {
      return [el('code', null, ch.id), ch.level].concat(ch.statuses.map(function (s) { return s ? el('span', { class: 'status status-' + s }, s) : '—'; }));
    })));
    return box;
  }

  function scenario(parent, c, row) {
    var box = el('section', { class: 'scenario', 'data-scenario': row.name }, el('h3', null, 'Scenario ' + row.name));
    parent.appendChild(box);
    var base = row.runs[c.baseline];
    function line(name, key, fmt) {
      return [name].concat(row.runs.map(function (m, i) {
        if (!m) return '—';
        if (i === c.baseline || !base) return fmt(m[key]);
        return deltaCell(fmt(m[key]) + ' (' + S.fmtDelta(m[key], base[key]) + ')', key, m[key], base[key]);
      }));
    }
    box.appendChild(HR.table(['metric'].concat(labels(c)), [
      line('p50', 'p50Ms', S.fmtMs), line('p95', 'p95Ms', S.fmtMs), line('p99', 'p99Ms', S.fmtMs),
      line('requests/s', 'rps', S.fmtNum), line('error rate', 'errorRate', S.fmtPct), line('429 rate', 'rate429', S.fmtPct), line('dropped', 'dropped', S.fmtNum),
    ]));
    var present = row.runs.map(function (m, i) { return { m: m, label: labels(c)[i], index: i }; }).filter(function (x) { return x.m; });
    var cats = categories(c, present);
    var grid = el('div', { class: 'charts' });
    box.appendChild(grid);
    HR.chart(grid, { name: 'compare-distribution', title: 'Latency distribution per run (HDR percentiles)', xLabel: 'percentile', yLabel: 'ms', xLog: true, points: true,
      data: S.percentileCurves(present.map(function (x) { return x.m.percentiles; })),
      series: present.map(function (x, i) { return { label: cats[i], run: i }; }),
      legend: function (column, s) { var m = present[s.run].m; return 'p50 ' + S.fmtMs(m.p50Ms) + ' · p99 ' + S.fmtMs(m.p99Ms); } });
    // Runs are categories (one tick each, named), not points on a numeric axis joined by lines.
    HR.chart(grid, { name: 'compare-percentiles', title: 'p50 / p95 / p99 per run', xLabel: 'run', yLabel: 'ms', categories: cats,
      data: [present.map(function (_, i) { return i; })].concat(['p50Ms', 'p95Ms', 'p99Ms'].map(function (k) { return present.map(function (x) { return x.m[k]; }); })),
      series: [{ label: 'p50' }, { label: 'p95' }, { label: 'p99' }],
      legend: function (column) { return column.map(function (v, i) { return cats[i] + ' ' + S.fmtMs(v); }).join(' · '); } });
  }

  function rateLimits(c) {
    if (!c.runs.some(function (r) { return r.rateLimit; })) return null;
    function row(name, f) { return [name].concat(c.runs.map(function (r) { return r.rateLimit ? f(r.rateLimit) : '—'; })); }
    return el('section', { id: 'rate-limits' }, el('h2', null, 'Rate limits'), HR.table([''].concat(labels(c)), [
      row('claimed', function (r) { return r.policyClaimed ? r.policyClaimed.quota + ' / ' + r.policyClaimed.windowS + ' s (' + r.headerStyle + ')' : 'none (' + r.headerStyle + ')'; }),
      row('observed', function (r) { return r.observed ? r.observed.quota + ' / ' + (r.observed.windowS !== undefined ? r.observed.windowS : '?') + ' s, ' + r.observed.algorithm : 'not measured (no 429)'; }),
      row('Retry-After claimed', function (r) { return r.retryAfter.claimedS !== undefined ? r.retryAfter.claimedS + ' s' : 'none'; }),
      row('actual recovery', function (r) { return r.retryAfter.actualRecoveryS !== undefined ? r.retryAfter.actualRecoveryS + ' s' : 'not measured'; }),
      row('isolated per credential', function (r) { return r.isolation.perCredential === undefined ? 'not tested' : r.isolation.perCredential ? 'yes' : 'no'; }),
    ]));
  }

  function budgets(c) {
    if (c.gate === 'none') return null;
    // "to decide": what an inconclusive budget lacked, as the console and the Markdown summary say it.
    return el('section', { id: 'budgets' }, el('h2', null, 'Budgets'), HR.table(['result', 'budget', 'run', 'detail', 'to decide'], c.budgets.map(function (b) {
      return [el('span', { class: b.status === 'exceeded' ? 'exceeded' : b.status === 'within' ? 'within' : 'undecided' }, b.status), el('code', null, b.budget), b.run, b.detail, b.status === 'inconclusive' ? (b.advice || '') : ''];
    })));
  }

  /** compare --history: the runs each scenario was compared with, those left out and the files skipped, with why. */
  function history(c) {
    if (!c.history) return null;
    var h = c.history;
    return el('section', { id: 'history' }, el('h2', null, 'History'),
      el('p', null, 'baseline: the newest ' + h.last + ' runs' + (h.label !== undefined ? ' of label ' + h.label : '') + ' in ', el('code', null, h.dir)),
      HR.table(['scenario', 'compared with', 'left out'], h.baselines.map(function (b) {
        return [b.scenario, b.runs.length ? b.runs.join(', ') : 'no run', b.leftOut.map(function (l) { return l.run + ' (' + l.why + ')'; }).join('; ') || '—'];
      })),
      h.skipped.length ? el('ul', { class: 'skipped' }, h.skipped.map(function (s) { return el('li', null, 'skipped ', el('code', null, s.file), ': ' + s.why); })) : null);
  }

  function render() {
    var c = HR.readData();
    var app = document.getElementById('app');
    app.textContent = '';
    [header(c), runs(c), changes(c)].forEach(function (n) { app.appendChild(n); });
    if (c.scenarios.length) {
      var box = el('section', { id: 'scenarios' }, el('h2', null, 'Scenarios'));
      app.appendChild(box);
      c.scenarios.forEach(function (row) { scenario(box, c, row); });
    }
    [rateLimits(c), budgets(c), history(c)].forEach(function (n) { if (n) app.appendChild(n); });
    document.body.setAttribute('data-ready', 'true');
  }

  render();
})(globalThis.HR = globalThis.HR || {});
