'use strict'

// Command line of `npm run bench -- record` (bench/commands/record.js, the recorder ./record.js): parsed
// and checked here, before any browser starts, so that a mistake is one line naming the flag and what
// is allowed (a UsageError: exit code 2, common/cli.js).
const fs = require('node:fs')
const path = require('node:path')
const { parseArgs } = require('node:util')
const { parseDuration } = require('../cells/budget')
const { UsageError } = require('../../common/errors')
const { httpsUrl } = require('../../common/cli')
const { RECORDING_BUFFERS } = require('../../harness/har/cdp-har')

const DEFAULT_TIMEOUT = '60s'
const SERVER_TIMES = ['least', 'page']
const MiB = 1024 * 1024

const HELP = `Usage: npm run bench -- record --url <https://…> [--url …] --out <file.har> [options]
       h2bench-run record --url <https://…> --out <file.har>

Records a site once, for replaying it (every origin over HTTP/1.1, HTTP/2 or HTTP/3): loads each
--url in turn in one headless Chromium (a throw-away profile, its cache off, so every response comes
from the network; QUIC allowed as Chromium allows it) and writes one HAR 1.2 file: every request and
response, each body as the browser received it (content.text, base64 when it is not UTF-8 text), and
h2bench's own fields: per entry _h2bench { origin, serverTimeMs, bodyComplete }, per origin (in
log._h2bench.origins) the address the browser connected to, the certificate's names and id, the
smallest round trip seen and the protocol spoken.

Options:
  --url <url>      a page to record, https:// (repeatable: a HAR page each, in this order)
  --out <file>     the HAR file to write (its folder must exist and be writable)
  --browser <name> chromium (the only one: Firefox's WebDriver BiDi gives no response bodies)
  --timeout <time> how long a page may take to load and go quiet, e.g. 90s or 2m (default ${DEFAULT_TIMEOUT});
                   a page still busy then is recorded as far as it got, and said so
  --ca <pem>       trust this CA too (a staging server, your own CA), for every origin it signed:
                   in Chromium's throw-away NSS database, after Node has checked each --url
                   origin's leaf against it (nothing of the machine's trust store changes)
  --server-time <how>  least (default): after the pages, each recorded GET is asked once more, alone
                   (one at a time per origin on a kept HTTP/1.1 connection), and a response's server
                   time is the smaller of that and the page's (which includes the wait behind other
                   responses on the connection); page: the page's alone, nothing asked twice
  -h, --help       show this help

A page has loaded when its load event has fired and no request has been in flight for 500 ms.
Bodies: Chromium keeps a response's body for the recorder up to ${RECORDING_BUFFERS.maxResourceBufferSize / MiB} MiB (a larger one is
recorded without its body, bodyComplete false) and ${RECORDING_BUFFERS.maxTotalBufferSize / MiB} MiB in all (each is fetched as soon as it
has arrived); redirects and responses the browser has no body of are recorded without one, and said so.
Progress goes to stderr, the summary to stdout. Needs Chrome or Chromium (CHROME_PATH, or
sudo apt-get install -y chromium).`

const OPTIONS = {
  url: { type: 'string', multiple: true },
  out: { type: 'string' },
  browser: { type: 'string', default: 'chromium' },
  timeout: { type: 'string', default: DEFAULT_TIMEOUT },
  ca: { type: 'string' },
  'server-time': { type: 'string', default: 'least' },
  help: { type: 'boolean', short: 'h', default: false }
}

// argv (after `record`) → { help: true } or { help: false, urls, out, browser, timeoutMs, ca, serverTime }.
function parseRecordArgs (argv) {
  let parsed
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS })
  } catch (err) {
    throw new UsageError(`${err.message.replace(/\. To specify.*$/s, '').replace(/\.$/, '')}; options are ${Object.keys(OPTIONS).map(o => `--${o}`).join(', ')}`)
  }
  const { values, positionals } = parsed
  if (values.help) return { help: true }
  if (positionals.length) throw new UsageError(`unexpected "${positionals.join(' ')}"; name pages with --url https://…`)
  if (!values.url) throw new UsageError('give the page to record with --url https://… (repeatable), e.g. npm run bench -- record --url https://example.com/ --out site.har')
  const urls = values.url.map(raw => httpsUrl(raw, 'the replay serves HTTP/2 and HTTP/3, which browsers speak only over https://'))
  if (values.browser !== 'chromium') {
    throw new UsageError(`--browser must be chromium (Firefox's WebDriver BiDi gives no response bodies to record); got "${values.browser}"`)
  }
  const timeoutMs = parseDuration(values.timeout)
  if (timeoutMs === null || timeoutMs > 3600 * 1000) {
    throw new UsageError(`--timeout must be a time up to 1 h, in seconds (90, 90s) or minutes (2m); got "${values.timeout}"`)
  }
  const ca = values.ca === undefined ? null : path.resolve(values.ca)
  if (!SERVER_TIMES.includes(values['server-time'])) throw new UsageError(`--server-time must be ${SERVER_TIMES.join(' or ')}; got "${values['server-time']}"`)
  return { help: false, urls: [...new Set(urls)], out: outFileOf(values.out), browser: values.browser, timeoutMs, ca, serverTime: values['server-time'] }
}

// --out: a file whose folder exists and may be written to, not a folder itself. → the absolute path.
function outFileOf (raw) {
  if (raw === undefined || raw === '') throw new UsageError('give the HAR file to write with --out <file.har>')
  const file = path.resolve(raw)
  const dir = path.dirname(file)
  let stat
  try {
    stat = fs.statSync(dir)
  } catch {
    throw new UsageError(`--out ${raw}: its folder ${dir} does not exist; make it first, or write elsewhere`)
  }
  if (!stat.isDirectory()) throw new UsageError(`--out ${raw}: ${dir} is not a folder`)
  try {
    fs.accessSync(dir, fs.constants.W_OK)
  } catch {
    throw new UsageError(`--out ${raw}: the folder ${dir} is not writable`)
  }
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new UsageError(`--out ${raw} is a folder; name the HAR file, e.g. --out ${path.join(raw, 'site.har')}`)
  return file
}

module.exports = { parseRecordArgs, HELP, DEFAULT_TIMEOUT }
