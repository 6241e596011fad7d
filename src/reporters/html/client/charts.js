/*
 * uPlot wrappers: one call per chart with a title, the columns from series.js and series labels. Charts are
 * drawn into a fresh <div class="chart" data-chart=NAME> so tests and readers can find each one; a chart with
 * no points says so in text instead of drawing an empty frame.
 */
(function (HR) {
  'use strict';

  var PALETTE = ['#2563eb', '#d97706', '#dc2626', '#059669', '#7c3aed', '#db2777', '#0891b2', '#65a30d'];
  /** Status-class colours mean the same in every chart. */
  HR.STATUS_COLORS = { requests: '#111827', '2xx': '#059669', '3xx': '#0891b2', '4xx': '#d97706', '5xx': '#dc2626', error: '#7c3aed', accepted: '#059669', limited: '#dc2626' };

  /**
   * opts: { name, title, data, series: [{ label, color?, scale?: 'y2', dash?: true }], xLabel, yLabel, y2Label?,
   *         xLog?: true (HDR percentile axis), xFormat?: fn(value) → string, points?: true }
   */
  function chart(parent, opts) {
    var box = HR.el('div', { class: 'chart', 'data-chart': opts.name });
    parent.appendChild(box);
    var hasPoints = opts.data.length > 1 && opts.data[0].length > 0;
    if (!hasPoints || typeof uPlot !== 'function') {
      box.appendChild(HR.el('p', { class: 'empty' }, opts.title + ': no data'));
      return null;
    }
    var width = Math.max(360, Math.min(box.clientWidth || 720, 960));
    var xAxis = { label: opts.xLabel, stroke: '#374151' };
    // A log axis has ticks at 1‥9 × 10^n; only the decades (90 %, 99 %, 99.9 % …) get a label.
    if (opts.xLog) xAxis.values = function (u, splits) { return splits.map(function (v) { return HR.series.isDecade(v) ? HR.series.percentileLabel(v) : ''; }); };
    else if (opts.xFormat) xAxis.values = function (u, splits) { return splits.map(opts.xFormat); };
    var axes = [xAxis, { label: opts.yLabel, stroke: '#374151', size: 60 }];
    var scales = { x: opts.xLog ? { time: false, distr: 3, log: 10 } : { time: false } };
    if (opts.y2Label) {
      axes.push({ label: opts.y2Label, scale: 'y2', side: 1, grid: { show: false }, stroke: '#374151', size: 60 });
      scales.y2 = {};
    }
    var series = [{ label: opts.xLabel }].concat(opts.series.map(function (s, i) {
      var color = s.color || PALETTE[i % PALETTE.length];
      return {
        label: s.label,
        stroke: color,
        width: 2,
        scale: s.scale || 'y',
        dash: s.dash ? [6, 4] : undefined,
        spanGaps: true,
        points: { show: opts.points === true || opts.data[0].length < 12, size: 6, fill: color },
      };
    }));
    // uPlot draws on a <canvas>; the legend below it is built by uPlot from our labels (as text).
    var plot = new uPlot({ title: opts.title, width: width, height: 260, scales: scales, axes: axes, series: series }, opts.data, box);
    return plot;
  }

  HR.chart = chart;
})(globalThis.HR = globalThis.HR || {});
