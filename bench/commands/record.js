'use strict'

// npm run bench -- record (bin/h2bench-run.js hands it `record`'s arguments): a site recorded once into
// a HAR for the replay. Arguments: bench/record/record-args.js; the recording: bench/record/record.js;
// the summary printed after it: bench/record/summary.js. Progress on stderr, the summary on stdout.
const fs = require('node:fs')
const path = require('node:path')
const { parseRecordArgs, HELP } = require('../record/record-args')
const { recordSite } = require('../record/record')
const { summaryLines } = require('../record/summary')

// → the exit code (common/cli.js): 0 written; a UsageError (exit 2) for what was typed; 1 for a
// recording that failed: nothing recorded, or a page that did not load at all (what there is written
// all the same). A page recorded only as far as it got by --timeout is a warning.
async function main (argv) {
  const opts = parseRecordArgs(argv)
  if (opts.help) {
    process.stdout.write(HELP + '\n')
    return 0
  }
  const log = line => process.stderr.write(`${line}\n`)
  const { har, problems } = await recordSite({ urls: opts.urls, timeoutMs: opts.timeoutMs, ca: opts.ca, serverTime: opts.serverTime, log })
  // Written beside, then renamed: a recording cut short leaves no half a HAR under the name asked for.
  const tmp = `${opts.out}.${process.pid}.tmp`
  fs.writeFileSync(tmp, JSON.stringify(har, null, 1))
  fs.renameSync(tmp, opts.out)
  const shown = path.relative(process.cwd(), opts.out) || opts.out
  process.stdout.write(summaryLines(har, shown.startsWith('..') ? opts.out : shown).join('\n') + '\n')
  for (const p of problems) log(`${p.failed ? 'failed' : 'warning'}: ${p.url}: ${p.text}`)
  return problems.some(p => p.failed) ? 1 : 0
}

module.exports = { main }
