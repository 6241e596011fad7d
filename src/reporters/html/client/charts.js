/*
 * uPlot wrappers: one call per chart with a title, the columns from series.js and series labels. Charts are
 * drawn into a fresh <div class="chart" data-chart=NAME> so tests and readers can find each one; a chart with
 * no points says so in text instead of drawing an empty frame. The legend is static and carries each series'
 * figures (last / max, or the value per category), so nothing needs a hover to be read; the chart takes its
 * card's width and follows it when the window is resized.
 */
(function (HR) {
  'use strict';

  var PALETTE = ['#2563eb', '#d97706', '#dc2626', '#059669', '#7c3aed', '#db2777', '#0891b2', '#65a30d'];
  /** Status-class colours mean the same in every chart. */
  HR.STATUS_COLORS = { requests: '#111827', '2xx': '#059669', '3xx': '#0891b2', '4xx': '#d97706', '5xx': '#dc2626', error: '#7c3aed', accepted: '#059669', limited: '#dc2626' };

  /** Width available inside the card (its padding excluded), bounded so a chart never exceeds its card. */
  function innerWidth(box) {
    var style = getComputedStyle(box);
    var inner = box.clientWidth - parseFloat(style.paddingLeft || '0') - parseFloat(style.paddingRight || '0');
    return Math.max(160, Math.min(inner || 720, 960));
  }

  /**
   * opts: { name, title, data, series: [{ label, color?, scale?: 'y2', dash?: true, unit? }], xLabel, yLabel, y2Label?,
   *         xLog?: true (HDR percentile axis), xFormat?: fn(value) → string, categories?: [labels] (x is 0..n-1),
   *         points?: true, legend?: fn(column) → string (figures shown beside the label; default last / max) }
   */
  function chart(parent, opts) {
    var box = HR.el('div', { class: 'chart', 'data-chart': opts.name });
    parent.appendChild(box);
    var hasPoints = opts.data.length > 1 && opts.data[0].length > 0;
    if (!hasPoints || typeof uPlot !== 'function') {
      box.appendChild(HR.el('p', { class: 'empty' }, opts.title + ': no data'));
      return null;
    }
    var xAxis = { label: opts.xLabel, stroke: '#374151' };
    // A log axis has ticks at 1‥9 × 10^n; only the decades (90 %, 99 %, 99.9 % …) get a label.
    if (opts.xLog) xAxis.values = function (u, splits) { return splits.map(function (v) { return HR.series.isDecade(v) ? HR.series.percentileLabel(v) : ''; }); };
    else if (opts.categories) {
      // Runs as categories: one tick per run, labelled with its name, never a numeric axis between them.
      xAxis.splits = function () { return opts.categories.map(function (_, i) { return i; }); };
      xAxis.values = function (u, splits) { return splits.map(function (v) { return opts.categories[v] !== undefined ? HR.series.shorten(opts.categories[v], 18) : ''; }); };
    } else if (opts.xFormat) xAxis.values = function (u, splits) { return splits.map(opts.xFormat); };
    var axes = [xAxis, { label: opts.yLabel, stroke: '#374151', size: 56 }];
    var scales = { x: opts.xLog ? { time: false, distr: 3, log: 10 } : { time: false } };
    // Categories sit half a step in from the edges so the first and last labels are not cut.
    if (opts.categories) scales.x.range = function () { return [-0.5, opts.categories.length - 0.5]; };
    if (opts.y2Label) {
      axes.push({ label: opts.y2Label, scale: 'y2', side: 1, grid: { show: false }, stroke: '#374151', size: 56 });
      scales.y2 = {};
    }
    var legendOf = opts.legend || HR.series.lastMax;
    var series = [{ label: opts.xLabel }].concat(opts.series.map(function (s, i) {
      var color = s.color || PALETTE[i % PALETTE.length];
      var figures = legendOf(opts.data[i + 1] || [], s);
      return {
        label: figures ? s.label + ' — ' + figures : s.label,
        stroke: color,
        width: 2,
        scale: s.scale || 'y',
        dash: s.dash ? [6, 4] : undefined,
        spanGaps: !opts.categories && !s.pointsOnly,
        paths: opts.categories || s.pointsOnly ? function () { return null; } : undefined,
        points: { show: s.pointsOnly === true || opts.points === true || opts.categories !== undefined || opts.data[0].length < 12, size: s.pointsOnly ? 11 : 7, fill: color },
      };
    }));
    // Right padding keeps the last x label (e.g. "99.99%") inside the canvas.
    var plot = new uPlot({ title: opts.title, width: innerWidth(box), height: 260, padding: [12, 28, 0, 4], scales: scales, axes: axes, series: series,
      legend: { live: false } }, opts.data, box);
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(function () { var w = innerWidth(box); if (Math.abs(w - plot.width) > 4) plot.setSize({ width: w, height: 260 }); }).observe(box);
    }
    return plot;
  }

  HR.chart = chart;
})(globalThis.HR = globalThis.HR || {});
