/*
 * report.html: renders the embedded { report, headline } (report.json's shape and src/report/headline.ts) with
 * HR.el (text nodes only) and HR.chart. The banner comes first; then what the run was about leads: for a run with
 * checks the summary by level, the checks by suite and level (failures expandable to their evidence) and the
 * coverage matrix and the Security block (OWASP items), then its scenarios; for a load or capacity run its scenarios; for a probe the rate-limit
 * section. A section with nothing to show is left out (no all-zero summary, no empty checks, no coverage matrix
 * of a run that ran no checks).
 */
(function (HR) {
  'use strict';
  var el = HR.el;
  var S = HR.series;

  function exchangeView(ex, index) {
    var req = ex.request;
    var res = ex.response;
    return el('div', { class: 'exchange' },
      el('h5', null, '#' + (index + 1) + ' ' + req.method + ' ' + req.url + (res ? ' → ' + res.status : '') + ' (' + S.fmtMs(ex.durationMs) + ')'),
      el('div', { class: 'label' }, 'request headers'), el('pre', null, headerText(req.headers)),
      req.body !== undefined ? [el('div', { class: 'label' }, 'request body'), el('pre', { class: 'body' }, req.body)] : null,
      res ? [el('div', { class: 'label' }, 'response ' + res.status + ' headers'), el('pre', null, headerText(res.headers)),
        el('div', { class: 'label' }, 'response body'), el('pre', { class: 'body' }, res.body)] : null,
      ex.error ? el('p', { class: 'transport-error' }, 'transport error: ', ex.error) : null,
      ex.curl ? [el('div', { class: 'label' }, 'reproduce (secrets as $HARNESS_* variables)'), el('pre', { class: 'curl' }, ex.curl)] : null);
  }

  function headerText(headers) {
    return Object.keys(headers || {}).map(function (k) { return k + ': ' + headers[k]; }).join('\n');
  }

  function checkView(check) {
    var vacuous = check.status === 'passed' && check.vacuous !== undefined;
    // A vacuous pass is marked apart ("passed?"): its rule was never exercised, and the note says what was missing.
    var label = vacuous ? 'passed?' : check.status === 'undecided' ? 'could not decide' : check.status;
    var head = [el('span', { class: 'status status-' + (vacuous ? 'vacuous' : check.status) }, label), ' ', el('code', null, check.id), ' — ', check.title,
      el('span', { class: 'duration' }, ' ' + S.fmtMs(check.durationMs))];
    var attrs = { class: 'check', 'data-status': check.status, 'data-check': check.id, 'data-vacuous': vacuous ? 'true' : null };
    if (!S.isProblem(check)) {
      return el('div', attrs, head, check.status === 'skipped' && check.message ? el('div', { class: 'reason' }, 'not run: ', check.message) : null,
        vacuous ? el('div', { class: 'reason vacuous-note' }, 'vacuous: ', check.vacuous) : null);
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

  /**
   * Failed PROFILE checks in two groups: a choice the config can describe (the keys to set), or a fault against
   * the target's own description (its config already sets those keys away from PROFILE.md). Absent when none.
   */
  function profileFindings(report) {
    var failed = report.checks.filter(function (c) { return c.describeIn; });
    if (!failed.length) return null;
    var item = function (c) {
      var values = Object.keys(c.describeIn.values || {}).map(function (k) { return k + ': ' + JSON.stringify(c.describeIn.values[k]); });
      return el('li', null, el('code', null, c.id), ': ', c.describeIn.keys.join(', '), values.length ? el('div', { class: 'profile-values' }, 'observed: ', el('code', null, values.join('; '))) : null);
    };
    var group = function (described, title) {
      var list = failed.filter(function (c) { return c.describeIn.described === described; });
      return list.length ? el('div', { class: 'profile-group', 'data-described': String(described) }, el('h3', null, title + ' (' + list.length + ')'), el('ul', null, list.map(item))) : null;
    };
    return el('section', { id: 'profile-findings' }, el('h2', null, 'PROFILE findings'),
      group(false, 'Describe it in config (harness init drafts these keys)'),
      group(true, 'A fault against your own description'));
  }

  function render() {
    var data = HR.readData();
    var report = data.report;
    var headline = data.headline;
    var B = HR.reportBanner;
    var R = HR.reportScenario;
    var app = document.getElementById('app');
    app.textContent = '';
    app.appendChild(B.banner(report, headline));
    if (report.checks.length) [B.summary(report), profileFindings(report), checks(report), B.coverage(report)].forEach(function (n) { if (n) app.appendChild(n); });
    if (report.checks.length && report.security) app.appendChild(B.security(report));
    if (report.scenarios && report.scenarios.length) {
      var box = el('section', { id: 'scenarios' }, el('h2', null, headline.kind === 'capacity' ? 'Capacity' : 'Scenarios'));
      app.appendChild(box);
      report.scenarios.forEach(function (sc) { R.scenario(box, sc); });
    }
    if (report.rateLimit) R.rateLimit(app, report.rateLimit);
    if (report.webhooks) R.webhooks(app, report.webhooks);
    document.body.setAttribute('data-ready', 'true');
  }

  render();
})(globalThis.HR = globalThis.HR || {});
