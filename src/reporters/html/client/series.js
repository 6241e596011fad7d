/*
 * Pure data shaping for the charts and tables: report sections in, uPlot's column arrays ([x[], y1[], y2[] …])
 * and display strings out. No DOM here, so test/unit/reporters/html-series.test.ts runs this file in a VM.
 */
(function (HR) {
  'use strict';

  function col(points, key) {
    return points.map(function (p) { return typeof key === 'function' ? key(p) : p[key] === undefined ? null : p[key]; });
  }

  /**
   * HDR percentile curves plot x = 1 / (1 - p) on a log axis, so 90 %, 99 %, 99.9 % are evenly spaced.
   * 100 % would be infinite: it is drawn at 99.9999 %.
   */
  function percentileX(percentile) {
    return 1 / (1 - Math.min(percentile, 99.9999) / 100);
  }

  /** Inverse of percentileX, for axis labels: 10 → "90%", 1000 → "99.9%". */
  function percentileLabel(x) {
    var p = 100 - 100 / x;
    return (Math.round(p * 10000) / 10000) + '%';
  }

  var S = {
    /** Scenario timelines (ScenarioResult.timeline): p50 and p99 per second. */
    latencyOverTime: function (timeline) {
      return [col(timeline, 't'), col(timeline, 'p50'), col(timeline, 'p99')];
    },
    percentileCurve: function (percentiles) {
      var sorted = percentiles.slice().sort(function (a, b) { return a.percentile - b.percentile; });
      return [sorted.map(function (p) { return percentileX(p.percentile); }), col(sorted, 'latencyMs')];
    },
    /** Several curves on one x axis (compare.html): the union of x values, null where a run has no point. */
    percentileCurves: function (curves) {
      var xs = [];
      curves.forEach(function (c) { c.forEach(function (p) { var x = percentileX(p.percentile); if (xs.indexOf(x) < 0) xs.push(x); }); });
      xs.sort(function (a, b) { return a - b; });
      return [xs].concat(curves.map(function (c) {
        return xs.map(function (x) {
          var hit = c.find(function (p) { return percentileX(p.percentile) === x; });
          return hit ? hit.latencyMs : null;
        });
      }));
    },
    /** Requests per second and the status classes (transport errors as `errors`). */
    rpsAndStatus: function (timeline) {
      return [col(timeline, 't')].concat(['requests', 'status2xx', 'status4xx', 'status5xx', 'errors'].map(function (k) { return col(timeline, k); }));
    },
    /** 5xx answers plus transport errors, as a share of a ScenarioResult's requests. */
    errorShare: function (sc) {
      if (!sc.requests) return 0;
      var failed = 0;
      Object.keys(sc.statusCodes || {}).forEach(function (code) { if (Number(code) >= 500) failed += sc.statusCodes[code]; });
      Object.keys(sc.errors || {}).forEach(function (code) { failed += sc.errors[code]; });
      return failed / sc.requests;
    },
    acceptedVsLimited: function (timeline) {
      return [col(timeline, 't'), col(timeline, function (p) { return p.requests - p.rateLimited; }), col(timeline, 'rateLimited')];
    },
    rateLimitTimeline: function (timeline) {
      return [col(timeline, 't'), col(timeline, 'accepted'), col(timeline, 'limited')];
    },
    retryAfter: function (samples) {
      return [col(samples, 't'), col(samples, 'claimedS'), col(samples, 'actualS')];
    },
    /** CapacityResult.steps: offered rate → achieved rps, the ideal line (achieved = offered) and p99. */
    capacity: function (steps) {
      return [col(steps, 'rate'), col(steps, 'achievedRps'), col(steps, 'rate'), col(steps, 'p99')];
    },
    /** suite → level → checks, suites and levels in first-seen order. */
    groupChecks: function (checks) {
      var suites = [];
      var bySuite = {};
      checks.forEach(function (c) {
        if (!bySuite[c.suite]) { bySuite[c.suite] = { suite: c.suite, levels: [], byLevel: {} }; suites.push(bySuite[c.suite]); }
        var s = bySuite[c.suite];
        if (!s.byLevel[c.level]) { s.byLevel[c.level] = []; s.levels.push(c.level); }
        s.byLevel[c.level].push(c);
      });
      return suites.map(function (s) {
        return { suite: s.suite, levels: s.levels.map(function (l) { return { level: l, checks: s.byLevel[l] }; }) };
      });
    },
    // Problems open with their message and evidence; an undecided check too (its reason and measured conditions).
    isProblem: function (check) {
      return check.status === 'failed' || check.status === 'error' || check.status === 'undecided';
    },
    fmtMs: function (n) { return n === undefined || n === null ? '—' : (n >= 100 ? Math.round(n) : Math.round(n * 100) / 100) + ' ms'; },
    fmtPct: function (share) { return share === undefined || share === null ? '—' : Math.round(share * 10000) / 100 + ' %'; },
    fmtNum: function (n) { return n === undefined || n === null ? '—' : String(Math.round(n * 100) / 100).replace(/\B(?=(\d{3})+(?!\d))/g, ' '); },
    fmtDelta: function (value, base) {
      if (value === undefined || value === null || base === undefined || base === null) return '';
      if (base === 0) return value === 0 ? '±0' : 'new';
      var d = ((value - base) / base) * 100;
      return (d >= 0 ? '+' : '') + Math.round(d * 10) / 10 + ' %';
    },
    /** A static legend's figures for one column: "last 16 ms · max 17 ms" (nulls ignored). */
    lastMax: function (column, s) {
      var values = column.filter(function (v) { return typeof v === 'number' && isFinite(v); });
      if (!values.length) return 'no values';
      var unit = s && s.unit ? ' ' + s.unit : '';
      var round = function (v) { return Math.round(v * 100) / 100; };
      return 'last ' + round(values[values.length - 1]) + unit + ' · max ' + round(Math.max.apply(null, values)) + unit;
    },
    /** "abcdefgh…" when longer than `max` characters (chart tick labels). */
    shorten: function (text, max) {
      text = String(text);
      return text.length > max ? text.slice(0, max - 1) + '…' : text;
    },
    /**
     * ScenarioResult.byName as table rows: name, requests, rps (over the scenario's measured duration), the
     * latency percentiles, status codes and failures (5xx answers; transport errors are counted per scenario only).
     */
    perName: function (sc) {
      var elapsedS = sc.rps > 0 ? sc.requests / sc.rps : 0;
      return Object.keys(sc.byName || {}).map(function (name) {
        var n = sc.byName[name];
        var codes = Object.keys(n.statusCodes || {}).sort();
        var failures = codes.reduce(function (sum, code) { return Number(code) >= 500 ? sum + n.statusCodes[code] : sum; }, 0);
        return {
          name: name, requests: n.requests, rps: elapsedS > 0 ? n.requests / elapsedS : null, latency: n.latency,
          statuses: codes.map(function (code) { return code + ' × ' + n.statusCodes[code]; }).join(', ') || 'none', failures: failures,
        };
      });
    },
    /** Seconds the scenario ran, measured: requests / rps (the timeline's length when there were no requests). */
    ranSeconds: function (sc) {
      if (sc.rps > 0 && sc.requests > 0) return sc.requests / sc.rps;
      return sc.timeline && sc.timeline.length ? sc.timeline.length : 0;
    },
    isDecade: function (x) { var l = Math.log10(x); return Math.abs(l - Math.round(l)) < 1e-9; },
    percentileX: percentileX,
    percentileLabel: percentileLabel,
  };
  HR.series = S;
})(globalThis.HR = globalThis.HR || {});
