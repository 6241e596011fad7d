/*
 * report.html's first screen: the banner (src/report/headline.ts computed its words: the same title as the
 * console's verdict line and the exit code, one line per measured fact) and, for runs with checks, the summary by
 * level and the spec coverage. A coverage clause whose checks all failed is "covered: failing", never green.
 * The Security block lists every OWASP API Security Top 10 (2023) item: findings first in words, then covered or
 * not covered with the reason (report.json `security`, src/conformance/owasp.ts).
 */
(function (HR) {
  'use strict';
  var el = HR.el;
  var LEVELS = ['MUST', 'SHOULD', 'PROFILE'];

  function banner(report, headline) {
    var run = report.run;
    var seconds = (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000;
    return el('header', { class: 'banner tone-' + headline.tone + ' verdict-' + report.verdict, 'data-verdict': report.verdict, 'data-tone': headline.tone,
      'data-exit': String(headline.exitCode), 'data-kind': headline.kind },
      el('h1', null, headline.title),
      el('p', { class: 'what' }, headline.what, ' against ', el('code', null, run.target.baseUrl), run.target.embedded ? ' (embedded reference target)' : ''),
      headline.lines.length ? el('ul', { class: 'facts' }, headline.lines.map(function (line) {
        return el('li', { class: 'fact fact-' + line.tone, 'data-label': line.label }, el('strong', null, line.label + ': '), line.text);
      })) : null,
      el('p', { class: 'meta' }, 'run ', el('code', null, run.id), ' · ' + run.startedAt + ' → ' + run.finishedAt +
        (isFinite(seconds) ? ' (' + Math.round(seconds * 10) / 10 + ' s)' : '') + ' · harness ' + run.harnessVersion));
  }

  /** Only for runs with checks: a load, capacity or probe report has no all-zero table. */
  function summary(report) {
    var s = report.summary;
    var rows = LEVELS.map(function (level) {
      var c = s.byLevel[level];
      return [level, c.passed - (c.vacuous || 0), c.vacuous || 0, c.failed, c.undecided || 0, c.errors, c.skipped];
    });
    rows.push(['all', s.passed - (s.vacuous || 0), s.vacuous || 0, s.failed, s.undecided || 0, s.errors, s.skipped]);
    // "could not decide" (undecided: the run's measured conditions made the answer unknowable) is a column of its
    // own, apart from "errored" (the check could not run): neither is a pass or a failure.
    return el('section', { id: 'summary' }, el('h2', null, 'Summary by level'),
      HR.table(['level', 'passed', 'passed vacuously', 'failed', 'could not decide', 'errored', 'not run'], rows, { class: 'summary' }),
      report.conditions ? conditions(report.conditions) : null);
  }

  /** The run's own measured conditions: what every time-dependent check took its tolerance from (per stretch). */
  function conditions(c) {
    function row(name, p) { return p ? [name, String(p.count), HR.series.fmtMs(p.p50), HR.series.fmtMs(p.p90), HR.series.fmtMs(p.p99), HR.series.fmtMs(p.max)] : null; }
    var rows = [row('event-loop delay', c.loopDelayMs), row('round trip to the target', c.rttMs), row('send lag', c.sendLagMs)].filter(Boolean);
    return el('div', { class: 'conditions', id: 'conditions' }, el('h3', null, 'Run conditions (measured by the run itself)'),
      el('p', null, 'Time-dependent checks derive their tolerance from these measurements, taken over the stretch each one judges; where the uncertainty covers the effect, the check says "could not decide".'),
      HR.table(['measurement', 'samples', 'p50', 'p90', 'p99', 'max'], rows, { class: 'conditions' }));
  }

  /** covered → "covered" only when a check of the clause passed for real; all failing → red "covered: failing". */
  function clauseStatus(clause, byId) {
    if (clause.status !== 'covered') return { text: clause.status, cls: clause.status };
    var results = clause.checks.map(function (id) { return byId[id]; }).filter(Boolean);
    if (!results.length) return { text: 'covered (no result)', cls: 'untestable' };
    var failing = results.filter(function (c) { return c.status === 'failed' || c.status === 'error'; }).length;
    var real = results.filter(function (c) { return c.status === 'passed' && c.vacuous === undefined; }).length;
    if (failing === results.length) return { text: 'covered: failing', cls: 'failing' };
    if (failing > 0) return { text: 'covered: ' + failing + ' of ' + results.length + ' failing', cls: 'failing' };
    if (real === 0) return { text: 'covered: not verified', cls: 'unverified' };
    return { text: 'covered', cls: 'covered' };
  }

  function coverage(report) {
    var c = report.coverage;
    var byId = {};
    report.checks.forEach(function (check) { byId[check.id] = check; });
    var rows = c.clauses.map(function (clause) {
      var st = clauseStatus(clause, byId);
      return [el('code', null, clause.id), clause.title, el('span', { class: 'cov cov-' + st.cls, 'data-clause': clause.id }, st.text),
        clause.reason ? clause.reason : clause.checks.join(', ')];
    });
    return el('section', { id: 'coverage' }, el('h2', null, 'Spec coverage'),
      el('p', null, c.covered + ' covered, ' + c.notCovered + ' not covered, ' + c.untestable + ' untestable'),
      HR.table(['clause', 'title', 'status', 'checks / reason'], rows, { class: 'coverage' }));
  }

  var OWASP_STATUS = { findings: { text: 'findings', cls: 'failing' }, covered: { text: 'covered', cls: 'covered' }, 'not-covered': { text: 'not covered', cls: 'unverified' } };

  function security(report) {
    var s = report.security;
    var rows = s.items.map(function (item) {
      var st = OWASP_STATUS[item.status];
      var detail = item.findings.length
        ? el('ul', { class: 'findings' }, item.findings.map(function (f) { return el('li', null, el('code', null, f.check), ' (' + f.level + '): ' + f.message); }))
        : item.reason || item.checks.join(', ');
      // The year is in the heading: "API1" and the risk's name share one cell, so a 390 px phone keeps them readable.
      return [el('span', null, el('code', { class: 'owasp-id' }, item.id.replace(':2023', '')), ' ' + item.title),
        el('span', { class: 'cov cov-' + st.cls, 'data-owasp': item.id }, st.text), detail];
    });
    return el('section', { id: 'security' }, el('h2', null, 'Security (OWASP API Security Top 10, 2023)'),
      el('p', null, s.withFindings + ' with findings, ' + s.covered + ' covered, ' + s.notCovered + ' not covered'),
      HR.table(['risk', 'status', 'findings / checks / reason'], rows, { class: 'security' }));
  }

  HR.reportBanner = { banner: banner, summary: summary, coverage: coverage, security: security, clauseStatus: clauseStatus };
})(globalThis.HR = globalThis.HR || {});
