'use strict'

// npm run bench:page's figures and study (bench/page-cost/page-cost.js measures): per lane, the medians of each
// side's browser CPU a batch (the page, the bare fetch()es, the page's jQuery requests alone over fetch and over
// XMLHttpRequest, the page with a DevTools Network domain on, the page not drawn), each side's ratio to the bare
// fetch (the DevTools and the undrawn side's to the page) as the median of the rounds' ratios with their range;
// the batches' times and the lanes' CPU; the aim judged by the verdict engine (bench/report/claims/page-cost.js).
const stats = require('../../../shared/stats')
const { readResults, writeStudyFiles } = require('../study-files')
const { UsageError } = require('../../../common/errors')
const { TOOL } = require('../../page-cost/tool')
const { judge, RULE_TEXT } = require('../claims/judge')
const { claimsOf } = require('../claims')

const median = xs => xs.length ? stats.median(xs) : null
const ms = v => v === null || v === undefined ? '–' : `${Math.round(v)}`
const x = v => v === null || !Number.isFinite(v) ? '–' : `${v.toFixed(2)}×`

// Each ratio: its side, what it is a ratio to, and of what (the whole browser's CPU, or its renderer's alone:
// the process where the page's JavaScript runs; records from before the renderer was metered have no such column).
const whole = b => b.browserCpuMs
const renderer = b => b.browserCpuByType ? b.browserCpuByType.renderer : null
const RATIOS = [
  { key: 'page', side: 'page', over: 'bare', of: whole, label: 'page ÷ bare', means: 'the page\'s measuring path against the least a page can do' },
  { key: 'jquery', side: 'jquery', over: 'bare', of: whole, label: 'jQuery alone ÷ bare', means: 'the page\'s jQuery requests (over fetch) and nothing else' },
  { key: 'xhr', side: 'xhr', over: 'bare', of: whole, label: 'XHR ÷ bare', means: 'the same requests over jQuery\'s own XMLHttpRequest (transport: \'xhr\')' },
  { key: 'devtools', side: 'devtools', over: 'page', of: whole, label: 'DevTools ÷ page', means: 'the page with a DevTools Network domain on, as DevTools throttling needs it' },
  { key: 'undrawn', side: 'undrawn', over: 'page', of: whole, label: 'undrawn ÷ page', means: 'the page\'s batch with the page not drawn meanwhile (its body display: none) against the page drawn: below 1 by what drawing the cards costs' },
  { key: 'pageRenderer', side: 'page', over: 'bare', of: renderer, label: 'renderer: page ÷ bare', means: 'page ÷ bare in Chromium\'s renderer process alone (the page\'s JavaScript and Blink: where the page\'s own work runs; the network service and the browser process move the same bytes on both sides)' },
  { key: 'jqueryRenderer', side: 'jquery', over: 'bare', of: renderer, label: 'renderer: jQuery ÷ bare', means: 'jQuery alone ÷ bare in the renderer process alone' }
]

// → [{ lane, protocol, pairs, sides: { <side>: { cpuMs, ms, serverCpuMs, ok, asked } }, ratios: { <side>: { n,
// median, min, max } } }]: sides and ratios only for the sides the record has.
function summarise ({ settings, batches }) {
  return settings.lanes.filter(lane => batches.some(b => b.lane === lane)).map(lane => {
    const mine = batches.filter(b => b.lane === lane)
    const present = [...new Set(mine.map(b => b.side))]
    const sides = Object.fromEntries(present.map(name => {
      const list = mine.filter(b => b.side === name)
      return [name, {
        cpuMs: median(list.map(b => b.browserCpuMs)),
        ms: median(list.map(b => b.ms)),
        serverCpuMs: median(list.map(b => b.serverCpuMs)),
        ok: list.reduce((a, b) => a + b.ok, 0),
        asked: list.length * settings.requests
      }]
    }))
    const ratioOf = ({ side, over, of }) => {
      const rs = [...new Set(mine.map(b => b.pair))].map(pair => {
        const at = s => mine.find(b => b.pair === pair && b.side === s)
        return at(side) && at(over) && of(at(side)) !== null && of(at(over)) > 0 ? of(at(side)) / of(at(over)) : null
      }).filter(r => r !== null)
      return { n: rs.length, median: median(rs), min: rs.length ? Math.min(...rs) : null, max: rs.length ? Math.max(...rs) : null }
    }
    const ratios = Object.fromEntries(RATIOS.filter(r => sides[r.side] && sides[r.over]).map(r => [r.key, ratioOf(r)]).filter(([, r]) => r.n > 0))
    return { lane, protocol: (mine[0] || {}).protocol || null, pairs: ratios.page ? ratios.page.n : 0, sides, ratios }
  })
}

// The engine's rows of a record: one a lane and side, its samples each round's browser CPU of a batch (in the order
// the rounds ran) and `rounds` the round of each (the sides ran in turn within a round: the engine pairs them), its
// failures the requests that did not answer in full.
function rowsOf ({ settings, batches }) {
  const rows = []
  for (const lane of settings.lanes) {
    for (const side of settings.sides || [...new Set(batches.map(b => b.side))]) {
      const list = batches.filter(b => b.lane === lane && b.side === side).sort((a, b) => a.pair - b.pair)
      if (!list.length) continue
      const samples = list.map(b => b.browserCpuMs)
      rows.push({
        experiment: 'page-cost', cell: 'loopback', network: 'loopback', lane, mode: side, samples, rounds: list.map(b => b.pair),
        median: median(samples), failures: list.reduce((a, b) => a + settings.requests - b.ok, 0)
      })
    }
  }
  return rows
}

// Each claim of bench/report/claims/page-cost.js judged on the record's rows: → [{ text, status, detail }].
function aims (record) {
  const rows = rowsOf(record)
  const label = () => `${record.settings.requests} × ${record.settings.size}`
  return claimsOf('page-cost').map(c => {
    const { text, status, detail } = judge(c, rows, { label })
    return { text, status, detail }
  })
}

const range = r => r.min === null || r.min === r.max ? '' : ` (${r.min.toFixed(2)}–${r.max.toFixed(2)})`
const ratioText = r => r ? `${x(r.median)}${range(r)}` : '–'

// The table of a record: a row a lane; → lines.
function table (record) {
  const rows = summarise(record)
  const ratioCols = RATIOS.filter(r => rows.some(s => s.ratios[r.key]))
  const sideCols = ['page', 'bare', 'jquery', 'xhr', 'devtools', 'undrawn'].filter(name => rows.some(s => s.sides[name]))
  const head = ['lane', ...sideCols.map(name => `${name} CPU ms`), ...ratioCols.map(r => r.label), 'page batch ms', 'bare batch ms', 'lanes\' CPU ms (page)', 'ok (page)']
  const body = rows.map(s => [
    s.lane,
    ...sideCols.map(name => ms(s.sides[name] ? s.sides[name].cpuMs : null)),
    ...ratioCols.map(r => ratioText(s.ratios[r.key])),
    ms(s.sides.page ? s.sides.page.ms : null), ms(s.sides.bare ? s.sides.bare.ms : null),
    ms(s.sides.page ? s.sides.page.serverCpuMs : null),
    s.sides.page ? `${s.sides.page.ok}/${s.sides.page.asked}` : '–'
  ])
  return { head, body, ratioCols }
}

function headline ({ settings, environment }) {
  const rounds = `${settings.pairs} round${settings.pairs === 1 ? '' : 's'} a lane`
  return [
    `h2bench page cost: ${settings.requests} × ${settings.size} a batch, ${rounds}, Chromium on loopback (no throttling)`,
    `System: Node ${environment.node}, ${environment.cpu} × ${environment.cpus}, ${environment.os}; h2bench ${environment.h2bench}` +
      `${environment.chromium ? `; ${environment.chromium}` : ''}`
  ]
}

// What a run prints: the settings, the machine and a line a lane (medians of the browser's CPU a batch, the ratios).
function formatPageCost (record) {
  const { head, body } = table(record)
  const widths = head.map((h, i) => Math.max(h.length, ...body.map(r => r[i].length)))
  const line = cells => cells.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join('  ')
  return [...headline(record), '', line(head), ...body.map(line), '', ...aims(record).map(a => `${a.status}: ${a.text}. ${a.detail}`)].join('\n')
}

// report.md: the same figures as a Markdown table, with what each ratio is; every figure from results.json.
function reportMarkdown (record) {
  const { head, body, ratioCols } = table(record)
  const { environment, settings } = record
  return [
    '# The page\'s measuring path against a bare fetch: `npm run bench:page`',
    '',
    `Command: \`${environment.command}\`, ${environment.date}.`,
    '',
    ...headline(record).map(l => `${l}  `),
    '',
    `Browser CPU of one batch (every Chromium process), medians of ${settings.pairs} round${settings.pairs === 1 ? '' : 's'} a lane, the sides in turn, the order alternating; ` +
      'each ratio is the median of the rounds\' ratios (their range in brackets):',
    '',
    ...ratioCols.map(r => `- ${r.label}: ${r.means}.`),
    '',
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...body.map(r => `| ${r.join(' | ')} |`),
    '',
    '## The aim, judged by the verdict engine',
    '',
    `${RULE_TEXT} Here a cell is a lane, its two sides run in turn within each round and so paired by round: the ratio is the median of the rounds' page ÷ bare browser CPU a batch, its interval the engine's for paired rounds.`,
    '',
    ...aims(record).map(a => `- **${a.status}**: ${a.text}. ${a.detail}`),
    '',
    'Rebuilt from results.json by `npm run bench:page -- --from <dir>/results.json`.',
    ''
  ].join('\n')
}

// A results.json of bench:page (--from's): a UsageError naming the file when it is not one.
function readStudy (file) {
  const json = readResults(file)
  const missing = ['environment', 'settings', 'batches'].filter(k => json[k] === undefined)
  if (json.tool !== TOOL || missing.length) {
    throw new UsageError(`--from ${file} is not a results.json of bench:page (tool "${json.tool}"${missing.length ? `; missing ${missing.join(', ')}` : ''})`)
  }
  return json
}

// <dir>/results.json and <dir>/report.md; → their paths.
const writeStudy = (dir, record) => writeStudyFiles(dir, record, reportMarkdown(record))

module.exports = { TOOL, summarise, rowsOf, aims, formatPageCost, reportMarkdown, readStudy, writeStudy }
