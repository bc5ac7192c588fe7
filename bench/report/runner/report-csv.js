'use strict'

// The runner's results.csv: one line per result row, the cell's parameters
// beside the row's own fields (docs/runner.md names them).

const CSV_COLUMNS = ['experiment', 'cell', 'requests', 'assets', 'sizeBytes', 'sizeMB', 'delayMs', 'preset', 'network', 'link', 'lane', 'mode',
  'protocol', 'median', 'q1', 'q3', 'mean', 'min', 'max', 'failures', 'repeatsAsked', 'repeatsGot', 'baseline', 'ratioToBaseline',
  'pushOutcome', 'assetMedian', 'samples', 'note']

function csvCell (v) {
  if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) return ''
  const s = Array.isArray(v) ? v.join(' ') : String(v)
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

function toCsv (results) {
  const lines = [CSV_COLUMNS.join(',')]
  for (const r of results) {
    const flat = { ...r.params, ...r }
    lines.push(CSV_COLUMNS.map(c => csvCell(flat[c])).join(','))
  }
  return lines.join('\n') + '\n'
}

module.exports = { toCsv, CSV_COLUMNS }
