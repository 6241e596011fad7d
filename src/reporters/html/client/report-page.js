/*
 * report.html: renders the embedded Report (report.json's shape) with HR.el (text nodes only) and HR.chart.
 * Order: verdict banner, summary by level, checks by suite and level (failures expandable to their evidence),
 * coverage matrix, then scenarios, the rate-limit probe and the webhook receiver's figures when the report has them.
 */
(function (HR) {
  'use strict';
  var el = HR.el;
  var S = HR.series;
  var LEVELS = ['MUST', 'SHOULD', 'PROFILE'];

  function banner(report) {
    var run = report.run;
    return el('header', { class: 'banner verdict-' + report.verdict, 'data-verdict': report.verdict },
      el('h1', null, 'Verdict: ' + report.verdict.toUpperCase()),
      el('p', null, 'run ', el('code', null, run.id), ' against ', el('code', null, run.target.baseUrl),
        run.target.embedded ? ' (embedded reference target)' : '', ' · harness ' + run.harnessVersion),
      el('p', null, run.startedAt + ' → ' + run.finishedAt),
      run.aborted ? el('p', { class: 'aborted' }, 'Run aborted (' + run.aborted.code + '): ', run.aborted.message) : null);
  }

  function summary(report) {
    var s = report.summary;
    var rows = LEVELS.map(function (level) {
      var c = s.byLevel[level];
      return [level, c.passed, c.failed, c.skipped, c.errors];
    });
    rows.push(['all', s.passed, s.failed, s.skipped, s.errors]);
    return el('section', { id: 'summary' }, el('h2', null, 'Summary by level'),
      HR.table(['level', 'passed', 'failed', 'skipped', 'errors'], rows, { class: 'summary' }));
  }

  function exchangeView(ex, index) {
    var req = ex.request;
    var res = ex.response;
    return el('div', { class: 'exchange' },
      el('h5', null, '#' + (index + 1) + ' ' + req.method + ' ' + req.url + (res ? ' → ' + res.status : '') + ' (' + S.fmtMs(ex.durationMs) + ')'),
      el('div', { class: 'label' }, 'request headers'), el('pre', null, headerText(req.headers)),
      req.body !== undefined ? [el('div', { class: 'label' }, 'request body'), el('pre', { class: 'body' }, req.body)] : null,
      res ? [el('div', { class: 'label' }, 'response ' + res.status + ' headers'), el('pre', null, headerText(res.headers)),
        el('div', { class: 'label' }, 'response body'), el('pre', { class: 'body' }, res.body)] : null,
      ex.error ? el('p', { class: 'transport-error' }, 'transport error: ', ex.error) : null);
  }

  function headerText(headers) {
    return Object.keys(headers || {}).map(function (k) { return k + ': ' + headers[k]; }).join('\n');
  }

  function checkView(check) {
    var head = [el('span', { class: 'status status-' + check.status }, check.status), ' ', el('code', null, check.id), ' — ', check.title,
      el('span', { class: 'duration' }, ' ' + S.fmtMs(check.durationMs))];
    var attrs = { class: 'check', 'data-status': check.status, 'data-check': check.id };
    if (!S.isProblem(check)) {
      return el('div', attrs, head, check.status === 'skipped' && check.message ? el('div', { class: 'reason' }, 'skipped: ', check.message) : null);
    }
    var evidence = check.evidence || { exchanges: [] };
    return el('details', attrs,
      el('summary', null, head),
      el('div', { class: 'failure' },
        check.message ? el('pre', { class: 'message' }, check.message) : null,
        el('p', { class: 'spec' }, 'Spec: ', check.specRef),
        evidence.details ? [el('div', { class: 'label' }, 'details'), el('pre', null, JSON.stringify(evidence.details, null, 2))] : null,
        evidence.exchanges.length ? el('div', { class: 'evidence' }, evidence.exchanges.map(exchangeView)) : el('p', null, 'no HTTP exchange recorded')));
  }

  function checks(report) {
    var toggle = el('input', { type: 'checkbox', id: 'failed-only' });
    var section = el('section', { id: 'checks' }, el('h2', null, 'Checks'),
      el('label', { class: 'filter' }, toggle, ' failed only (failed and errored checks)'));
    toggle.addEventListener('change', function () { section.classList.toggle('failed-only', toggle.checked); });
    S.groupChecks(report.checks).forEach(function (group) {
      var suiteBox = el('div', { class: 'suite', 'data-problems': String(group.levels.some(function (l) { return l.checks.some(S.isProblem); })) },
        el('h3', null, group.suite));
      group.levels.forEach(function (l) {
        suiteBox.appendChild(el('div', { class: 'level', 'data-problems': String(l.checks.some(S.isProblem)) },
          el('h4', null, l.level), l.checks.map(checkView)));
      });
      section.appendChild(suiteBox);
    });
    return section;
  }

  function coverage(report) {
    var c = report.coverage;
    var rows = c.clauses.map(function (clause) {
      return [el('code', null, clause.id), clause.title, el('span', { class: 'cov cov-' + clause.status }, clause.status),
        clause.reason ? clause.reason : clause.checks.join(', ')];
    });
    return el('section', { id: 'coverage' }, el('h2', null, 'Spec coverage'),
      el('p', null, c.covered + ' covered, ' + c.notCovered + ' not covered, ' + c.untestable + ' untestable'),
      HR.table(['clause', 'title', 'status', 'checks / reason'], rows, { class: 'coverage' }));
  }

  /** One report.json `scenarios[]` entry: the load engine's ScenarioResult (plus `capacity` after a capacity search). */
  function scenario(parent, sc) {
    var box = el('section', { class: 'scenario', 'data-scenario': sc.name });
    parent.appendChild(box);
    var l = sc.latency;
    var description = sc.config && typeof sc.config.description === 'string' ? sc.config.description : '';
    box.appendChild(el('h3', null, sc.name + ' (' + sc.executor + ')'));
    if (description) box.appendChild(el('p', { class: 'description' }, description));
    box.appendChild(HR.table(['requests', 'rps', 'dropped', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max', 'errors', '429s'], [[
      S.fmtNum(sc.requests), S.fmtNum(sc.rps), S.fmtNum(sc.dropped), S.fmtMs(l.p50), S.fmtMs(l.p90), S.fmtMs(l.p95), S.fmtMs(l.p99),
      S.fmtMs(l.p999), S.fmtMs(l.max), S.fmtPct(S.errorShare(sc)), S.fmtNum(sc.rateLimited) + ' (' + S.fmtPct(sc.requests ? sc.rateLimited / sc.requests : 0) + ')']]));
    if (sc.thresholds.length) {
      box.appendChild(HR.table(['threshold', 'actual', 'result'], sc.thresholds.map(function (t) {
        return [t.metric + ': ' + t.expr, S.fmtNum(t.actual), el('span', { class: 'status status-' + (t.ok ? 'passed' : 'failed') }, t.ok ? 'passed' : 'crossed')];
      }), { class: 'thresholds' }));
    }
    var codes = Object.keys(sc.statusCodes).map(function (k) { return k + ' × ' + sc.statusCodes[k]; })
      .concat(Object.keys(sc.errors || {}).map(function (k) { return k + ' × ' + sc.errors[k]; }));
    box.appendChild(el('p', { class: 'codes' }, 'status codes: ' + (codes.length ? codes.join(', ') : 'none')));
    var grid = el('div', { class: 'charts' });
    box.appendChild(grid);
    HR.chart(grid, { name: 'latency-over-time', title: 'Latency percentiles over time', data: S.latencyOverTime(sc.timeline), xLabel: 's', yLabel: 'ms',
      series: [{ label: 'p50' }, { label: 'p99' }] });
    HR.chart(grid, { name: 'latency-distribution', title: 'Latency distribution (HDR percentiles)', data: S.percentileCurve(sc.percentiles || []), xLabel: 'percentile', yLabel: 'ms', xLog: true, points: true,
      series: [{ label: 'latency' }] });
    HR.chart(grid, { name: 'throughput', title: 'Requests/s and status classes', data: S.rpsAndStatus(sc.timeline), xLabel: 's', yLabel: 'per second',
      series: ['requests', '2xx', '4xx', '5xx', 'error'].map(function (k) { return { label: k, color: HR.STATUS_COLORS[k] }; }) });
    HR.chart(grid, { name: 'rate-limited', title: 'Accepted vs 429 per second', data: S.acceptedVsLimited(sc.timeline), xLabel: 's', yLabel: 'per second',
      series: [{ label: 'accepted', color: HR.STATUS_COLORS.accepted }, { label: '429', color: HR.STATUS_COLORS.limited }] });
    if (sc.capacity) {
      var cap = sc.capacity;
      box.appendChild(el('p', null, 'capacity against SLO ', el('code', null, cap.slo), ' and error budget ' + S.fmtPct(cap.errorBudget) + ': sustainable rate ' +
        (cap.sustainableRps > 0 ? S.fmtNum(cap.sustainableRps) + '/s' : 'none (the start rate already broke the SLO)')));
      HR.chart(grid, { name: 'capacity', title: 'Capacity curve', data: S.capacity(cap.steps), xLabel: 'offered rate /s', yLabel: 'achieved /s', y2Label: 'p99 ms', points: true,
        series: [{ label: 'achieved rps' }, { label: 'offered (ideal)', dash: true, color: '#9ca3af' }, { label: 'p99 ms', scale: 'y2' }] });
    }
  }

  function rateLimit(parent, rl) {
    var box = el('section', { id: 'rate-limit' }, el('h2', null, 'Rate limit'));
    parent.appendChild(box);
    var claimed = rl.policyClaimed;
    var o = rl.observed;
    var nm = rl.notMeasured || {};
    box.appendChild(HR.table(['', 'quota', 'window', 'algorithm', 'burst', 'refill/s'], [
      ['claimed (' + (claimed && claimed.source === 'config' ? 'config' : rl.headerStyle + ' headers') + ')', claimed ? claimed.quota : '—', claimed ? claimed.windowS + ' s' : '—', '—', '—', '—'],
      o ? ['observed', o.quota, o.windowS !== undefined ? o.windowS + ' s' : 'not measured', o.algorithm, o.burst !== undefined ? o.burst : '—', o.refillPerS !== undefined ? o.refillPerS : '—']
        : ['observed', 'not measured', 'not measured', '—', '—', '—'],
    ], { class: 'ratelimit' }));
    if (rl.admitted) box.appendChild(el('p', null, 'No 429: ' + rl.admitted.requests + ' requests admitted in ' + rl.admitted.seconds + ' s (peak ' + rl.admitted.peakRps + ' req/s).'));
    if (rl.contradiction) box.appendChild(el('p', { class: 'differs' }, 'DIFFERS from the claim: ' + rl.contradiction.detail));
    box.appendChild(el('p', null, 'Retry-After claimed ' + (rl.retryAfter.claimedS !== undefined ? rl.retryAfter.claimedS + ' s' : 'none') +
      ', actual recovery ' + (rl.retryAfter.actualRecoveryS !== undefined ? rl.retryAfter.actualRecoveryS + ' s' : (nm.recovery || 'not measured')) +
      '. Isolation per credential: ' + (rl.isolation.perCredential === undefined ? (rl.isolation.detail || 'not tested')
        : (rl.isolation.perCredential ? 'yes' : 'NO') + (rl.isolation.detail ? ' (' + rl.isolation.detail + ')' : ''))));
    var grid = el('div', { class: 'charts' });
    box.appendChild(grid);
    HR.chart(grid, { name: 'ratelimit-timeline', title: 'Rate-limit probe: accepted vs 429 per second', data: S.rateLimitTimeline(rl.timeline), xLabel: 's', yLabel: 'per second',
      series: [{ label: 'accepted', color: HR.STATUS_COLORS.accepted }, { label: '429', color: HR.STATUS_COLORS.limited }] });
    if (rl.retryAfter.samples && rl.retryAfter.samples.length) {
      HR.chart(grid, { name: 'retry-after', title: 'Retry-After: claimed vs actual recovery', data: S.retryAfter(rl.retryAfter.samples), xLabel: 's', yLabel: 'seconds', points: true,
        series: [{ label: 'claimed' }, { label: 'actual' }] });
    }
  }

  function webhooks(parent, wh) {
    function lat(l) { return [l ? S.fmtMs(l.p50) : '—', l ? S.fmtMs(l.p99) : '—', l ? S.fmtMs(l.max) : '—']; }
    var rows = [['checks', S.fmtNum(wh.received), S.fmtNum(wh.signatureFailures), S.fmtNum(wh.duplicates), S.fmtNum(wh.retriesObserved)].concat(lat(wh.deliveryLatency))];
    // Under load: a second receiver registered while the throughput scenarios ran (received and latency only).
    if (wh.underLoad) rows.push(['under load', S.fmtNum(wh.underLoad.received), '—', '—', '—'].concat(lat(wh.underLoad.deliveryLatency)));
    parent.appendChild(el('section', { id: 'webhooks' }, el('h2', null, 'Webhooks'),
      HR.table(['phase', 'received', 'signature failures', 'duplicates', 'retries observed', 'latency p50', 'p99', 'max'], rows, { class: 'webhooks' }),
      el('p', null, 'Latency: from each event\'s created_at to its first arrival at the harness\'s receiver.' +
        (wh.underLoad ? ' "under load": a receiver registered only while the throughput scenarios ran.' : ''))));
  }

  function render() {
    var report = HR.readData();
    var app = document.getElementById('app');
    app.textContent = '';
    [banner(report), summary(report), checks(report), coverage(report)].forEach(function (n) { app.appendChild(n); });
    if (report.scenarios && report.scenarios.length) {
      var box = el('section', { id: 'scenarios' }, el('h2', null, 'Scenarios'));
      app.appendChild(box);
      report.scenarios.forEach(function (sc) { scenario(box, sc); });
    }
    if (report.rateLimit) rateLimit(app, report.rateLimit);
    if (report.webhooks) webhooks(app, report.webhooks);
    document.body.setAttribute('data-ready', 'true');
  }

  render();
})(globalThis.HR = globalThis.HR || {});
