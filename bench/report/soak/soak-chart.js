'use strict'

// The soak's chart.svg: which panels and lines (RSS, fds, event-loop delay
// over time); bench/report/chart/line-chart.js draws them.
const { f, signed, int, clock } = require('../../soak/soak-format')
const { timeChart } = require('../chart/line-chart')

// RSS (the server's own figure, the observer's, the trend line after the
// warm-up), open fds, and the event-loop delay p99 per interval over time.
function chartSvg (result) {
  const samples = result.samples
  const xMax = Math.max(result.durationSeconds, ...samples.map(s => s.t), 1)
  const trend = result.trend
  const warmup = trend.warmupSeconds
  const rssTrend = trend.enough
    ? [
        [warmup, trend.rss.intercept + trend.rss.slopePerMinute / 60 * warmup],
        [samples[samples.length - 1].t, trend.rss.intercept + trend.rss.slopePerMinute / 60 * samples[samples.length - 1].t]
      ]
    : []
  const panels = [
    {
      title: 'Server RSS',
      unit: 'MiB',
      yMinFloor: 0,
      series: [
        { label: 'server (memoryUsage)', color: '#1f6feb', points: samples.map(s => [s.t, s.rssMiB]) },
        { label: 'observer (VmRSS)', color: '#f0883e', dash: '4 3', width: 1.2, points: samples.map(s => [s.t, s.observer.rssMiB]) },
        { label: `trend ${signed(trend.enough ? trend.rss.growth : 0)} MiB`, color: '#cf222e', width: 2, points: rssTrend }
      ]
    },
    {
      title: 'Server open file descriptors',
      unit: 'fds',
      yMinFloor: 0,
      series: [
        { label: 'server (/proc/self/fd)', color: '#1a7f37', points: samples.map(s => [s.t, s.fds]) },
        { label: 'observer (/proc/<pid>/fd)', color: '#8250df', dash: '4 3', width: 1.2, points: samples.map(s => [s.t, s.observer.fds]) }
      ]
    },
    {
      title: `Event-loop delay p99 per ${result.settings.intervalSeconds} s interval`,
      unit: 'ms',
      yMinFloor: 0,
      series: [{ label: 'p99', color: '#57606a', points: samples.map(s => [s.t, s.loop.p99]) }]
    }
  ]
  const v = result.verdict
  return timeChart({
    title: `h2bench soak: ${f(result.durationSeconds / 60)} min, lanes ${result.settings.lanes.join(', ')} — ${v.pass ? 'PASS' : 'FAIL'}`,
    subtitle: `${int(result.totals.requests)} requests, ${result.totals.failed} failed; shaded: warm-up (${clock(warmup)}), left out of the trend; x: minutes since the load started`,
    panels,
    xMax,
    warmup
  })
}

module.exports = { chartSvg }
