'use strict'

// The soak's command line: its options, their checks and --help.
const { UsageError } = require('../../common/errors')
const { parseArgs } = require('node:util')
const { LANES, laneNamesFrom } = require('../../server/lanes')
const { RSS_TOLERANCE, FD_RANGE, POOL_GROWTH } = require('./soak-criteria')
const { EDGE_UPSTREAM_CONNS } = require('../../server/edge/caddy')
const { WORKLOADS } = require('./soak-workload')

const LANE_NAMES = LANES.map(l => l.name)
const DEFAULT_MINUTES = 30
const DEFAULT_INTERVAL = 5
const SMOKE = { minutes: 0.2, interval: 1 }
const OPTION_NAMES = ['--minutes', '--lanes', '--interval', '--json', '--out', '--smoke', '--from', '--help']

const HELP = `Usage: npm run soak -- [options]
       npm run soak -- --from <results.json> [--out <dir>] [--json]

Soak test: runs mixed page batches against every lane, continuously, in the
local Chromium (headless, through puppeteer-core), through the h2bench page's
own window.h2bench.run(), while the server, started in a process of its own,
reports its RSS, open file descriptors and event-loop delay. This process reads
the server's RSS and fds from /proc/<pid> as well, as an independent check.

Workload rotation (each one run with repeats: 1 on every lane, round and round):
  ${WORKLOADS.map(w => w.label).join(', ')}

Verdict, after a warm-up (the first 20 % of the run, at least 1 min for runs of
5 min or more):
  RSS flat:   the least-squares growth of RSS over the measured span is below
              the larger of ${RSS_TOLERANCE.fraction * 100} % of the mean RSS and ${RSS_TOLERANCE.floorMiB} MiB
  fds flat:   max − min of the open fds is at most ${FD_RANGE}, leaving out the
              connections Caddy pools to the edge lanes' apps, which follow the
              load (the server counts its sockets by owner from /proc/self/net/tcp)
  edge pool:  at most ${EDGE_UPSTREAM_CONNS} of those per edge lane (Caddy's bound), and their
              least-squares growth at most the larger of ${FD_RANGE} and ${POOL_GROWTH * 100} % of that bound
  CLOSE_WAIT: sockets the peer closed and the server did not grow by at most ${FD_RANGE}
  no failure: zero failed requests, by the page's count and by Chromium's
              requestfailed events; the server process still running
Exit code 0 when it passes, 1 when it does not, 2 for bad options, 130 when
interrupted (Ctrl-C stops cleanly and reports what was measured).

Options:
  --minutes <m>     minutes of load, e.g. 30 or 0.5 (default ${DEFAULT_MINUTES}; at most 1440)
  --lanes <list>    lanes, comma-separated (default ${LANE_NAMES.join(',')})
  --interval <s>    seconds between samples, 0.5…300 (default ${DEFAULT_INTERVAL})
  --out <dir>       also write results.json, chart.svg (RSS, fds and event-loop
                    delay over time) and report.md there (default: write nothing)
  --json            print the full result as JSON on stdout (the report then goes to stderr)
  --smoke           ${SMOKE.minutes * 60} s of load, a sample every ${SMOKE.interval} s (about 20 s in all), to check
                    that everything works; not with --minutes or --interval
  --from <file>     rebuild a finished soak's verdict, table and report from its
                    results.json by today's rules (no load is run); with --out,
                    write them there (e.g. back into the study's folder)
  -h, --help        show this help

Progress goes to stderr, one line per sample. Needs Linux (/proc) and Chrome or
Chromium: CHROME_PATH, or the usual install paths.`


function numberIn (name, raw, min, max, what) {
  const n = Number(raw)
  if (!/^\s*\d+(\.\d+)?\s*$/.test(String(raw)) || !(n >= min && n <= max)) {
    throw new UsageError(`--${name} must be ${what}; got "${raw}"`)
  }
  return n
}

function parseSoakArgs (argv) {
  let parsed
  try {
    parsed = parseArgs({
      // "--minutes -1" would be "ambiguous" to parseArgs: a negative number
      // after a flag that takes a value is that value (and is then refused).
      args: argv.map((a, i) => /^-\d/.test(a) && /^--(minutes|interval|lanes|out)$/.test(argv[i - 1] || '') ? null : /^--(minutes|interval|lanes|out)$/.test(a) && /^-\d/.test(argv[i + 1] || '') ? `${a}=${argv[i + 1]}` : a).filter(a => a !== null),
      allowPositionals: true,
      options: {
        minutes: { type: 'string' },
        lanes: { type: 'string', default: LANE_NAMES.join(',') },
        interval: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean', default: false },
        smoke: { type: 'boolean', default: false },
        from: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false }
      }
    })
  } catch (err) {
    // parseArgs says e.g. "Unknown option '--minute'. To specify a positional…"
    throw new UsageError(`${err.message.replace(/\. To specify.*$/s, '').replace(/\.$/, '')}; options are ${OPTION_NAMES.join(', ')}`)
  }
  const { values, positionals } = parsed
  if (values.help) return { help: true }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"; options are ${OPTION_NAMES.join(', ')}`)
  if (values.from !== undefined) {
    // --lanes has a default: whether it was given, only the command line says.
    const given = ['minutes', 'interval', 'lanes'].filter(k => argv.some(a => a === `--${k}` || a.startsWith(`--${k}=`)))
    if (values.smoke) given.push('smoke')
    if (given.length) throw new UsageError(`--from rebuilds a finished soak from what it recorded: leave out ${given.map(k => `--${k}`).join(', ')}`)
    if (!values.from.trim()) throw new UsageError('--from needs the path of a soak\'s results.json')
    if (values.out !== undefined && !values.out.trim()) throw new UsageError('--out needs a directory')
    return { help: false, from: values.from, out: values.out === undefined ? null : values.out, json: values.json }
  }
  if (values.smoke && (values.minutes !== undefined || values.interval !== undefined)) {
    throw new UsageError(`--smoke sets its own length (${SMOKE.minutes * 60} s, a sample every ${SMOKE.interval} s): leave out --minutes and --interval`)
  }
  const minutes = values.smoke ? SMOKE.minutes
    : values.minutes === undefined ? DEFAULT_MINUTES : numberIn('minutes', values.minutes, 0.05, 1440, 'a number of minutes from 0.05 to 1440, e.g. 30 or 0.5')
  const interval = values.smoke ? SMOKE.interval
    : values.interval === undefined ? DEFAULT_INTERVAL : numberIn('interval', values.interval, 0.5, 300, 'a number of seconds from 0.5 to 300')
  if (interval > minutes * 60) throw new UsageError(`--interval (${interval} s) must be shorter than the run (--minutes ${minutes} = ${minutes * 60} s)`)
  const lanes = laneNamesFrom(values.lanes)
  if (values.out !== undefined && !values.out.trim()) throw new UsageError('--out needs a directory')
  return {
    help: false,
    minutes,
    intervalSeconds: interval,
    lanes: LANE_NAMES.filter(n => lanes.includes(n)), // registry order, each once
    out: values.out === undefined ? null : values.out,
    json: values.json,
    smoke: values.smoke
  }
}

module.exports = { parseSoakArgs, HELP }
