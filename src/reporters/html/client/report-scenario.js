/*
 * report.html's throughput sections: per scenario what ran (the config as it ran, the measured duration), the
 * totals, a per-request-name table, thresholds, status codes, charts and the capacity curve; the rate-limit probe
 * and the webhook receiver's figures.
 */
(function (HR) {
  'use strict';
  var el = HR.el;
  var S = HR.series;
  /** Config keys shown in "as it ran", in this order when present. */
  var CONFIG_KEYS = ['executor', 'rate', 'timeUnit', 'duration', 'stages', 'vus', 'iterations', 'preAllocatedVUs', 'maxVUs', 'startRate', 'gracefulStop'];

  function asRan(sc) {
    var cfg = sc.config || {};
    var parts = CONFIG_KEYS.filter(function (k) { return cfg[k] !== undefined; }).map(function (k) {
      var v = cfg[k];
      if (Array.isArray(v)) v = v.map(function (st) { return st && typeof st === 'object' ? (st.duration || '?') + '→' + (st.target !== undefined ? st.target : '?') : String(st); }).join(', ');
      return k + ' ' + v;
    });
    return el('p', { class: 'as-ran' }, el('strong', null, 'As it ran: '), parts.join(' · ') +
      ' — measured ' + Math.round(S.ranSeconds(sc) * 10) / 10 + ' s, ' + S.fmtNum(sc.requests) + ' requests');
  }

  function perNameTable(sc) {
    var rows = S.perName(sc).map(function (n) {
      var l = n.latency;
      return [el('code', null, n.name), S.fmtNum(n.requests), S.fmtNum(n.rps), S.fmtMs(l.p50), S.fmtMs(l.p90), S.fmtMs(l.p95), S.fmtMs(l.p99),
        S.fmtMs(l.p999), S.fmtMs(l.max), n.statuses, n.failures ? el('span', { class: 'bad' }, S.fmtNum(n.failures)) : '0'];
    });
    if (!rows.length) return null;
    if (sc.iterations) return flowTables(sc, rows);
    return [el('h4', null, 'Per request name'),
      HR.table(['name', 'requests', 'rps', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max', 'statuses', 'failures (5xx)'], rows, { class: 'by-name' })];
  }

  /** A flow scenario: its iterations (k6's iterations and iteration_duration), then one row per step. */
  function flowTables(sc, rows) {
    var it = sc.iterations;
    var d = it.duration;
    var failedBy = it.failedBy || {};
    S.perName(sc).forEach(function (n, i) {
      var failed = failedBy[n.name] || 0;
      rows[i].push(failed ? el('span', { class: 'bad' }, S.fmtNum(failed)) : '0');
    });
    return [el('h4', null, 'Iterations (one pass through the flow; duration from its intended start, think times included)'),
      HR.table(['iterations', 'per s', 'failed', 'p50', 'p90', 'p95', 'p99', 'max'], [[S.fmtNum(it.count), S.fmtNum(it.rate),
        it.failed ? el('span', { class: 'bad' }, S.fmtNum(it.failed)) : '0', S.fmtMs(d.p50), S.fmtMs(d.p90), S.fmtMs(d.p95), S.fmtMs(d.p99), S.fmtMs(d.max)]], { class: 'iterations' }),
      el('h4', null, 'Per step'),
      HR.table(['step', 'requests', 'rps', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max', 'statuses', 'failures (5xx)', 'iterations failed here'], rows, { class: 'by-name by-step' })];
  }

  /** What the live metrics output (--metrics-out) delivered, and what it could not. */
  function metricsOutput(m) {
    var lost = m.failedPushes || m.samplesNotSent;
    return el('p', { class: 'metrics-output' + (lost ? ' bad' : '') }, 'Live metrics (' + m.kind + ' to ' + m.url + ', testid ' + m.testid + '): ' + S.fmtNum(m.pushes) + ' pushes, ' +
      S.fmtNum(m.samplesSent) + ' samples sent' + (lost ? ', ' + S.fmtNum(m.failedPushes) + ' failed pushes, ' + S.fmtNum(m.samplesNotSent) + ' samples not sent' + (m.lastError ? ' (last error: ' + m.lastError + ')' : '') : ''));
  }

  /** One report.json `scenarios[]` entry: the load engine's ScenarioResult (plus `capacity` after a capacity search). */
  function scenario(parent, sc) {
    var box = el('section', { class: 'scenario', 'data-scenario': sc.name });
    parent.appendChild(box);
    var l = sc.latency;
    box.appendChild(el('h3', null, sc.name + ' (' + sc.executor + ')'));
    box.appendChild(asRan(sc));
    var description = sc.config && typeof sc.config.description === 'string' ? sc.config.description : '';
    if (description) box.appendChild(el('p', { class: 'description' }, 'From the scenario file: ' + description));
    box.appendChild(HR.table(['requests', 'rps', 'dropped', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max', 'errors', '429s'], [[
      S.fmtNum(sc.requests), S.fmtNum(sc.rps), S.fmtNum(sc.dropped), S.fmtMs(l.p50), S.fmtMs(l.p90), S.fmtMs(l.p95), S.fmtMs(l.p99),
      S.fmtMs(l.p999), S.fmtMs(l.max), S.fmtPct(S.errorShare(sc)), S.fmtNum(sc.rateLimited) + ' (' + S.fmtPct(sc.requests ? sc.rateLimited / sc.requests : 0) + ')']], { class: 'totals' }));
    box.appendChild(el('div', null, perNameTable(sc)));
    if (sc.metricsOutput) box.appendChild(metricsOutput(sc.metricsOutput));
    if (sc.thresholds.length) {
      box.appendChild(HR.table(['threshold', 'actual', 'result'], sc.thresholds.map(function (t) {
        // Not evaluated: its metric had no samples (an imported k6 output); it fails, and says why instead of a value.
        if (t.notEvaluated) return [t.metric + ': ' + t.expr, 'not evaluated: ' + t.notEvaluated, el('span', { class: 'status status-failed' }, 'NOT EVALUATED')];
        return [t.metric + ': ' + t.expr, S.fmtNum(t.actual), el('span', { class: 'status status-' + (t.ok ? 'passed' : 'failed') }, t.ok ? 'passed' : 'CROSSED')];
      }), { class: 'thresholds' }));
    }
    var codes = Object.keys(sc.statusCodes).map(function (k) { return k + ' × ' + sc.statusCodes[k]; })
      .concat(Object.keys(sc.errors || {}).map(function (k) { return k + ' × ' + sc.errors[k]; }));
    box.appendChild(el('p', { class: 'codes' }, 'status codes: ' + (codes.length ? codes.join(', ') : 'none')));
    var grid = el('div', { class: 'charts' });
    box.appendChild(grid);
    if (sc.capacity) capacity(box, grid, sc.capacity);
    HR.chart(grid, { name: 'latency-over-time', title: 'Latency percentiles over time', data: S.latencyOverTime(sc.timeline), xLabel: 's', yLabel: 'ms',
      series: [{ label: 'p50', unit: 'ms' }, { label: 'p99', unit: 'ms' }] });
    HR.chart(grid, { name: 'latency-distribution', title: 'Latency distribution (HDR percentiles)', data: S.percentileCurve(sc.percentiles || []), xLabel: 'percentile', yLabel: 'ms', xLog: true, points: true,
      series: [{ label: 'latency', unit: 'ms' }], legend: function () { return 'p50 ' + S.fmtMs(l.p50) + ' · p99 ' + S.fmtMs(l.p99) + ' · max ' + S.fmtMs(l.max); } });
    HR.chart(grid, { name: 'throughput', title: 'Requests/s and status classes', data: S.rpsAndStatus(sc.timeline), xLabel: 's', yLabel: 'per second',
      series: ['requests', '2xx', '4xx', '5xx', 'error'].map(function (k) { return { label: k, color: HR.STATUS_COLORS[k] }; }) });
    HR.chart(grid, { name: 'rate-limited', title: 'Accepted vs 429 per second', data: S.acceptedVsLimited(sc.timeline), xLabel: 's', yLabel: 'per second',
      series: [{ label: 'accepted', color: HR.STATUS_COLORS.accepted }, { label: '429', color: HR.STATUS_COLORS.limited }] });
  }

  /**
   * An interrupted search's words, as the banner, the console and junit.xml say them (src/util/capacity-words.ts):
   * never a sustainable rate the search did not finish measuring.
   */
  function interruptedWords(cap) {
    var at = cap.interrupted ? 'at step ' + cap.interrupted.atStep + ' of ' + cap.interrupted.plannedSteps : 'before its first step';
    var held = cap.steps.some(function (s) { return s.ok; }) ? '; at least ' + cap.sustainableRps + ' req/s held in the finished steps' : '; no finished step held the SLO';
    return 'ceiling not reached: interrupted ' + at + held;
  }

  function capacityWords(cap) {
    if (cap.ceiling === 'interrupted') return interruptedWords(cap);
    return 'sustainable rate ' +
      (cap.sustainableRps > 0 ? S.fmtNum(cap.sustainableRps) + '/s' : 'none (the start rate already broke the SLO)') +
      (cap.ceiling === 'generator-bound' ? ' — not measured further: the load generator, not the target, broke the next step' : cap.ceiling === 'not-reached' || (cap.ceiling === undefined && cap.steps.length && cap.steps.every(function (s) { return s.ok; })) ? ' — ceiling not reached: every step held' : '');
  }

  function capacity(box, grid, cap) {
    box.insertBefore(el('p', { class: 'capacity' }, 'Capacity against SLO ', el('code', null, cap.slo), ' and error budget ' + S.fmtPct(cap.errorBudget) + ': ' + capacityWords(cap)), grid);
    HR.chart(grid, { name: 'capacity', title: 'Capacity curve', data: S.capacity(cap.steps), xLabel: 'offered rate /s', yLabel: 'achieved /s', y2Label: 'p99 ms', points: true,
      series: [{ label: 'achieved rps', unit: '/s' }, { label: 'offered (ideal)', dash: true, color: '#6b7280', unit: '/s' }, { label: 'p99 ms', scale: 'y2', unit: 'ms' }] });
  }

  function rateLimit(parent, rl) {
    var box = el('section', { id: 'rate-limit' }, el('h2', null, 'Rate limit'));
    parent.appendChild(box);
    var claimed = rl.policyClaimed;
    var o = rl.observed;
    var nm = rl.notMeasured || {};
    // Only what the probe measured: without 429s there is no observed quota, window, recovery or isolation.
    box.appendChild(HR.table(['', 'quota', 'window', 'algorithm', 'burst', 'refill/s'], [
      ['claimed (' + (claimed && claimed.source === 'config' ? 'config' : rl.headerStyle + ' headers') + ')', claimed ? claimed.quota : '—', claimed ? claimed.windowS + ' s' : '—', '—', '—', '—'],
      o ? ['observed', o.quota, o.windowS !== undefined ? o.windowS + ' s' : 'not measured', o.algorithm, o.burst !== undefined ? o.burst : '—', o.refillPerS !== undefined ? o.refillPerS : '—']
        : ['observed', 'not measured', 'not measured', '—', '—', '—'],
    ], { class: 'ratelimit' }));
    if (rl.admitted) box.appendChild(el('p', null, 'No 429: ' + rl.admitted.requests + ' requests admitted in ' + rl.admitted.seconds + ' s (peak ' + rl.admitted.peakRps + ' req/s).'));
    if (rl.contradiction) box.appendChild(el('p', { class: 'differs' }, 'DIFFERS from the claim: ' + rl.contradiction.detail));
    var honest = rl.retryAfter.honest === undefined ? 'not established' : rl.retryAfter.honest ? 'honest' : 'DISHONEST';
    box.appendChild(el('p', null, 'Retry-After claimed ' + (rl.retryAfter.claimedS !== undefined ? rl.retryAfter.claimedS + ' s' : 'none') +
      ', actual recovery ' + (rl.retryAfter.actualRecoveryS !== undefined ? rl.retryAfter.actualRecoveryS + ' s' : (nm.recovery || 'not measured')) +
      ' (' + honest + '). Isolation per credential: ' +
      (rl.isolation.tested === false || rl.isolation.perCredential === undefined ? 'not tested' : rl.isolation.perCredential ? 'yes' : 'NO'), rl.isolation.detail ? ' (' + rl.isolation.detail + ')' : ''));
    var grid = el('div', { class: 'charts' });
    box.appendChild(grid);
    HR.chart(grid, { name: 'ratelimit-timeline', title: 'Rate-limit probe: accepted vs 429 per second', data: S.rateLimitTimeline(rl.timeline), xLabel: 's', yLabel: 'per second',
      series: [{ label: 'accepted', color: HR.STATUS_COLORS.accepted }, { label: '429', color: HR.STATUS_COLORS.limited }] });
    if (rl.retryAfter.samples && rl.retryAfter.samples.length) {
      HR.chart(grid, { name: 'retry-after', title: 'Retry-After: claimed vs actual recovery', data: S.retryAfter(rl.retryAfter.samples), xLabel: 's', yLabel: 'seconds', points: true,
        series: [{ label: 'claimed', unit: 's' }, { label: 'actual', unit: 's' }] });
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

  HR.reportScenario = { scenario: scenario, rateLimit: rateLimit, webhooks: webhooks };
})(globalThis.HR = globalThis.HR || {});
