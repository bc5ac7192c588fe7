'use strict'

// Command line of `npm run bench` (bench/runner/run.js): parsed and checked here so
// that a mistake gets one line naming the flag and what is allowed.
const path = require('node:path')
const { parseArgs } = require('node:util')
const { LANES, laneNamesFrom } = require('../../server/lanes')
const { EXPERIMENTS } = require('../experiments')
const { parseDuration } = require('../cells/budget')
const { UsageError } = require('../../common/errors')
const { httpsUrl } = require('../../common/cli')
const { allowList, patternOf, failedOrigins } = require('../../common/failed-requests')
const { PROTOCOLS } = require('../../harness/force-protocol')
const { parseLinkSpec } = require('../../link/spec')
const { unavailableReason, LinkUnavailableError } = require('../../link/namespace')
const { readReplay, REPLAY_PROTOCOLS, VARIANTS, variantRefusal } = require('../cells/replay-plan')
const { mountNamespaceUnavailableReason, FirefoxError } = require('../../harness/firefox')

const LANE_NAMES = LANES.map(l => l.name)
const IDS = EXPERIMENTS.map(e => e.id)
const DEFAULT_REPEATS = 10 // as the source: every cell 10 times
const DEFAULT_BUDGET = '2m'
// The replay's protocols unless --protocols says: h2e beside h3, so HTTP/3 meets HTTP/2 from the same server
// (bench/report/claims/replay.js); h2-spdy (a reference like h2) only when asked.
const REPLAY_DEFAULT = ['h1', 'h2', 'h2e', 'h3']
const NETWORKS = { devtools: ['devtools'], link: ['link'], both: ['devtools', 'link'] }
const BROWSERS = { chromium: ['chromium'], firefox: ['firefox'], both: ['chromium', 'firefox'] }

const HELP = `Usage: npm run bench -- <experiment…|all> [options]
       h2bench-run <experiment…|all> [options]
       npm run bench -- merge <dir|results.json>… --out <dir>
       npm run bench -- record --url <https://…> --out <file.har>   (a site into a HAR for the replay: record --help)
       npm run bench -- replay --har <file.har> [--protocols h1,h2,h2e,h3] [--repeats n]   (that HAR replayed per protocol)

Reruns the source study's experiments in the local Chrome/Chromium (headless,
through puppeteer-core): starts the lanes on free ports with a throw-away
certificate, opens the h2bench page, sets each cell's network conditions through
CDP and calls window.h2bench.run(), the same code path as the page's Run button.
Writes results.json, results.csv, report.md and report.html.

Experiments (run in this order):
${EXPERIMENTS.map(e => `  ${e.id.padEnd(16)} ${e.title}`).join('\n')}
  all              every one of them

Options:
  --repeats <k>     batches per lane and cell, 1…100 (default ${DEFAULT_REPEATS}, as the source; 1 with --smoke)
  --budget <time>   time a cell may take, e.g. 90s or 2m (default ${DEFAULT_BUDGET}): a cell whose
                    first repeat shows that the rest will not fit gets fewer repeats,
                    and the report says which and why
  --lanes <list>    lanes, comma-separated (default ${LANE_NAMES.join(',')})
  --network <kind>  devtools (default): each preset as DevTools throttling (CDP, per
                    request: no handshakes, slow start, queues or loss); link: the same
                    preset as a packet-level link (h2bench-link; Linux, root or user
                    namespaces), the browser and clients behind it; both: each cell on
                    both, side by side in the report
  --browser <name>  chromium (default), firefox (Debian's firefox-esr over WebDriver BiDi,
                    trusting the lanes' local CA in a throw-away profile) or both: each
                    cell in each browser, side by side in the report. Firefox runs the
                    experiments that need no Chromium-only tool (rest, and page
                    experiments behind the link); the others run in Chromium only
  --cells <list>    only these cells, by the name the report gives them (the sweep's
                    value: "loss 30 %", 150, 0.2), separated by | (e.g. --cells "clean|loss 30 %")
  --seed <n>        behind the link, the seed of its random decisions (loss, duplication, …;
                    default: a new one, recorded in results.json): every lane of repeat r
                    meets the same drops, from seed n + r (paired), a new seed per repeat
  --unpaired        give every lane's run a seed of its own instead (what pairing saves
                    is measured against this)
  --out <dir>       where to write the results (default results/<timestamp>/)
  --json            also print results.json to stdout
  --smoke           tiny workloads, fast presets only where the slow ones add nothing:
                    checks that everything runs (well under a minute)
  --from <file>     run nothing: rebuild results.csv, report.md and report.html from
                    a results.json (into --out, default the file's directory)
  --lanes-at <url>  the lanes of another machine (npm start -- --lanes-only there) instead of
                    lanes started here: their manifest (<url>/lanes.json) says where each is; the
                    page runs here, DevTools throttling on top of the real path; the round trip
                    to them is measured and recorded. Chromium and --network devtools only, and
                    only experiments measured in the page (the load tools': h2bench load --lanes-at)
  --token <token>   the token those lanes printed (their ledgers and counters need it)
  --url <url>       experiment site: the page to measure, https:// (repeatable: a cell each).
                    Each repeat starts a new browser per protocol, loads the page cold, then
                    again as a repeat view (cache, TLS sessions, open connections warm), and
                    writes a HAR file per load into <out>/har/. The real path: no link,
                    no DevTools throttling
  --protocols <l>   experiment site: the protocols to force, a run each (default h1,h2,h3):
                    h1 (no h2 in ALPN, no QUIC), h2 (no QUIC), h3 (QUIC from the first request
                    to the page's origin). A load the server answered over another protocol
                    is a failure, said in the row
  --link <spec>     experiment site: load the page through the packet-level link (a preset or spec,
                    h2bench-link --list), the browser behind it and the origin reached by NAT from
                    the link's namespace (opt-in: slirp4netns, user-mode networking, and iptables
                    inside the runner's own namespace; the machine's interfaces untouched)
  --har <file>      experiment replay: the HAR to replay (npm run bench -- record's, or one DevTools
                    saved). Each repeat, per protocol, serves every recorded origin from its own
                    127.0.1.x address and recorded port (node:https, node:http2, spdy, or Caddy for
                    HTTP/3 and h2e), with certificates of a CA made for the replay, in the runner's
                    private network namespace; a new browser resolves the recorded names to it
                    (Chromium: --host-resolver-rules; Firefox, --browser firefox|both: a hosts file
                    over /etc/hosts in a mount namespace of its own, the machine's untouched) and
                    loads each recorded page cold, then as a repeat view, measured as site measures a
                    load. Rows say what the replay served, the requests the recording lacked (404s,
                    named) and what it assumed of the HAR. --protocols: h1, h2 (node:http2), h2-spdy
                    (HTTP/2 served by spdy), h2e (HTTP/2 over TCP from h3's own Caddy: h3 against h2e
                    differs in protocol only), h3 (default ${REPLAY_DEFAULT.join(',')}). With --link
                    <spec> the replay listens on addresses of the link's own instead (recorded ports
                    kept) and the browser sits behind the link: every request crosses it
  --variants <list> experiment replay: the server's behaviours to replay, each beside the plain one
                    (plain, its server's own scheduling): fifo (per connection, each body after the
                    one asked before it), rfc9218 (by each request's priority header: urgency, then
                    incremental; RFC 9218), early-hints (a 103 with the recorded response's preload
                    and preconnect Link headers when the request arrives). E.g. --variants
                    early-hints,rfc9218; rows of a variant are its view and its name (cold
                    early-hints), compared with plain's by the engine
  --visual          experiments site and replay, Chromium: trace each load with screenshots: its Speed
                    Index, first and last visual change (Lighthouse's speedline) and a filmstrip per load
                    (<out>/filmstrips/); the screenshots cost the browser CPU during the load, so it is asked
  --allow-failed <pattern>
                    experiments site and replay: a failure you expect (repeatable). A load in which
                    a request failed below HTTP (a network, TLS or protocol error, not an HTTP
                    status; the page's own aborts aside) is a failed load, named in its row with
                    its first errors, unless a pattern matches the request's URL (* for any run of
                    characters: https://ads.example/*). replay refuses a recording with failed
                    requests unless each is expected so
  --ca <pem>        experiment site: trust this CA too (a staging server, a company CA), for
                    every origin it signed, in the browser's throw-away NSS database (Firefox's
                    profile, Chromium's home), after Node has checked the page origin's leaf
                    against it; nothing of the machine's trust store changes
  --shard <i/n>     run only the i-th of n shares of the cells (1 ≤ i ≤ n; cell k of the plan
                    goes to shard k mod n, so each shard gets a mix), as Playwright's and
                    Jest's --shard: a CI matrix or a Kubernetes indexed Job runs the n shards
                    on n machines (examples: docs/sharding/). Behind the link give --seed too,
                    so every shard meets the same drops. Then:
  merge <dir…>      run nothing: join the shards' results.json into one results.json and
                    report (into --out), the same as one run's; refuses shards of different
                    code or options, a shard twice, or a missing one
  -h, --help        show this help

Progress goes to stderr. Needs Chrome or Chromium: CHROME_PATH, or the usual
install paths (Debian/Ubuntu: sudo apt-get install -y chromium).`

function intIn (name, raw, min, max) {
  const n = Number(raw)
  if (!/^\d+$/.test(String(raw).trim()) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer ${min}…${max}; got "${raw}"`)
  }
  return n
}

function cellList (raw) {
  const names = raw.split('|').map(n => n.trim()).filter(Boolean)
  if (!names.length) throw new UsageError(`--cells needs one or more cell names separated by |; got "${raw}"`)
  return names
}

function parseRunArgs (argv) {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        repeats: { type: 'string' },
        budget: { type: 'string', default: DEFAULT_BUDGET },
        lanes: { type: 'string', default: LANE_NAMES.join(',') },
        network: { type: 'string', default: 'devtools' },
        browser: { type: 'string', default: 'chromium' },
        out: { type: 'string' },
        cells: { type: 'string' },
        seed: { type: 'string' },
        unpaired: { type: 'boolean', default: false },
        shard: { type: 'string' },
        'lanes-at': { type: 'string' },
        token: { type: 'string' },
        url: { type: 'string', multiple: true },
        protocols: { type: 'string' },
        ca: { type: 'string' },
        'allow-failed': { type: 'string', multiple: true },
        har: { type: 'string' },
        variants: { type: 'string' },
        visual: { type: 'boolean', default: false },
        link: { type: 'string' },
        json: { type: 'boolean', default: false },
        smoke: { type: 'boolean', default: false },
        from: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false }
      }
    })
  } catch (err) {
    // parseArgs says e.g. "Unknown option '--repeat'. To specify a positional…"
    throw new UsageError(`${err.message.replace(/\. To specify.*$/s, '').replace(/\.$/, '')}; options are --repeats, --budget, --lanes, --network, --browser, --cells, --seed, --unpaired, --shard, --lanes-at, --token, --url, --protocols, --ca, --allow-failed, --har, --variants, --visual, --link, --out, --json, --smoke, --from, --help`)
  }
  const { values, positionals } = parsed
  if (values.help) return { help: true }
  if (values.from !== undefined) {
    if (positionals.length) throw new UsageError(`--from rebuilds the report of a finished run: name no experiments with it (got ${positionals.join(' ')})`)
    return { help: false, from: values.from, out: values.out || null, json: values.json }
  }
  if (positionals[0] === 'merge') {
    if (positionals.length < 2) throw new UsageError('merge: name the shards\' result directories (or their results.json), e.g. merge shard-1 shard-2 --out merged')
    if (!values.out) throw new UsageError('merge: give --out <dir> for the merged results.json and report')
    return { help: false, merge: positionals.slice(1), out: values.out, json: values.json }
  }
  if (positionals.length === 0) throw new UsageError(`name one or more experiments (${IDS.join(', ')}) or all; see --help`)
  for (const id of positionals) {
    if (id !== 'all' && !IDS.includes(id)) throw new UsageError(`unknown experiment "${id}"; experiments are ${IDS.join(', ')}, or all`)
  }
  const lanes = laneNamesFrom(values.lanes)
  if (!NETWORKS[values.network]) {
    throw new UsageError(`--network must be devtools, link or both; got "${values.network}"`)
  }
  if (!BROWSERS[values.browser]) {
    throw new UsageError(`--browser must be chromium, firefox or both; got "${values.browser}"`)
  }
  if (values['allow-failed'] !== undefined && !positionals.includes('site') && !positionals.includes('replay')) throw new UsageError('--allow-failed is the site and replay experiments\': npm run bench -- site --url https://… --allow-failed \'https://ads.example/*\'')
  const replay = replayOf(values, positionals)
  if (values.variants !== undefined && !positionals.includes('replay')) throw new UsageError('--variants is the replay experiment\'s: npm run bench -- replay --har site.har --variants early-hints')
  if (values.visual && !positionals.includes('site') && !positionals.includes('replay')) throw new UsageError('--visual is the site and replay experiments\': npm run bench -- site --url https://… --visual (or replay --har site.har --visual)')
  const budgetMs = parseDuration(values.budget)
  if (budgetMs === null || budgetMs > 24 * 3600 * 1000) {
    throw new UsageError(`--budget must be a time up to 24 h, in seconds (90, 90s) or minutes (2m, 1.5min); got "${values.budget}"`)
  }
  return {
    help: false,
    experiments: [...new Set(positionals)],
    repeats: values.repeats === undefined ? (values.smoke ? 1 : DEFAULT_REPEATS) : intIn('repeats', values.repeats, 1, 100),
    budgetMs,
    lanes: LANE_NAMES.filter(n => lanes.includes(n)), // registry order, each once
    networks: values.link !== undefined && (positionals.includes('site') || positionals.includes('replay')) ? ['link'] : NETWORKS[values.network],
    browsers: BROWSERS[values.browser],
    // Whole numbers a JavaScript number holds exactly, with room for the repeats and lanes added to them.
    seeding: {
      seed: values.seed === undefined ? Math.floor(Math.random() * 2 ** 40) : intIn('seed', values.seed, 0, 2 ** 48),
      paired: !values.unpaired
    },
    cells: values.cells === undefined ? null : cellList(values.cells),
    shard: values.shard === undefined ? null : shardOf(values.shard, values),
    lanesAt: values['lanes-at'] === undefined ? null : lanesAtOf(values),
    token: values.token ?? null,
    site: siteOf(values, positionals),
    replay,
    out: values.out || null,
    json: values.json,
    smoke: values.smoke
  }
}

// --lanes-at: the page's experiments only, in Chromium, through DevTools throttling (a link sits between this machine's
// clients and lanes it starts itself).
function lanesAtOf (values) {
  if (values.network !== 'devtools') throw new UsageError(`--lanes-at and --network ${values.network}: the packet-level link sits between this machine's clients and lanes it starts; with lanes elsewhere the network is the real path (and DevTools throttling): leave out --network`)
  if (values.browser !== 'chromium') throw new UsageError(`--lanes-at and --browser ${values.browser}: remote lanes are measured in Chromium only (it trusts their certificate by its SPKI hash, from their manifest)`)
  return values['lanes-at']
}

// --link <spec> of site and replay: the spec's text, or null; a UsageError naming what is wrong with it.
function linkOf (values) {
  if (values.link === undefined) return null
  try {
    return parseLinkSpec(values.link, { traces: false }).text
  } catch (err) {
    throw new UsageError(`--link: ${err.message}`)
  }
}

// --url, --protocols, --ca (experiment site) → { urls, protocols, ca } or null.
function siteOf (values, positionals) {
  const named = positionals.includes('site')
  if (!values.url) {
    if (named) throw new UsageError('site measures a page of yours: give --url https://… (e.g. npm run bench -- site --url https://example.com/ --browser both)')
    for (const flag of ['protocols', 'ca', 'link']) if (values[flag] !== undefined && !(flag !== 'ca' && positionals.includes('replay'))) throw new UsageError(`--${flag} is the site experiment's: npm run bench -- site --url https://… --${flag} …`)
    return null
  }
  if (!named) throw new UsageError('--url is the site experiment\'s: npm run bench -- site --url https://…')
  const urls = values.url.map(raw => httpsUrl(raw, 'HTTP/2 and HTTP/3 in browsers need https://'))
  const protocols = (values.protocols ?? PROTOCOLS.join(',')).split(',').map(p => p.trim()).filter(Boolean)
  const unknown = protocols.filter(p => !PROTOCOLS.includes(p))
  if (!protocols.length || unknown.length) throw new UsageError(`--protocols must list ${PROTOCOLS.join(', ')} (comma-separated); got "${values.protocols}"`)
  if (values.network !== 'devtools') throw new UsageError(`site and --network ${values.network}: the site experiment measures the real path to --url, or that path behind a link of --link <spec> (leave out --network)`)
  const link = linkOf(values)
  if (values['lanes-at'] !== undefined) throw new UsageError('site and --lanes-at: the site experiment measures --url, not lanes')
  return {
    urls: [...new Set(urls)],
    protocols: PROTOCOLS.filter(p => protocols.includes(p)),
    ca: values.ca === undefined ? null : path.resolve(values.ca),
    link,
    ...(values['allow-failed'] ? { allowFailed: allowFailedOf(values) } : {}),
    ...(values.visual ? { visual: true } : {})
  }
}

// --har, --protocols (experiment replay) → { har, protocols, pages, recordedAt } or null. The HAR is read and
// checked here: a file that is missing or cannot be replayed is the archive's own error, as a usage error.
function replayOf (values, positionals) {
  const named = positionals.includes('replay')
  if (values.har === undefined) {
    if (named) throw new UsageError('replay serves a recorded HAR: give --har site.har (record one with npm run bench -- record --url https://… --out site.har)')
    return null
  }
  if (!named) throw new UsageError('--har is the replay experiment\'s: npm run bench -- replay --har site.har')
  const others = positionals.filter(p => p !== 'replay')
  if (others.length) throw new UsageError(`replay runs alone: --har with ${others.join(', ')} (run those apart)`)
  if (values.browser !== 'chromium') {
    // Firefox has no per-name resolver switch: it is sent to the replay by a hosts file over /etc/hosts in a mount
    // namespace of its own (harness/firefox/hosts.js). Where none can be made: said now, and how to go without.
    const why = mountNamespaceUnavailableReason()
    if (why) throw new FirefoxError(`replay and --browser ${values.browser}: Firefox has no per-name resolver switch, so the replay sends it to its own addresses for the recorded names by a hosts file over /etc/hosts in a mount namespace of Firefox's own, and here ${why}; Chromium needs none (--host-resolver-rules): leave out --browser`)
  }
  const link = linkOf(values)
  if (link) {
    // Where no link can be made (not Linux, no /dev/net/tun, no root or user namespace, …): said now, and how to go without.
    const why = unavailableReason()
    if (why) throw new LinkUnavailableError(`replay --link: ${why}; without --link the replay serves on loopback`)
  }
  if (values.network !== 'devtools') throw new UsageError(`replay and --network ${values.network}: the replay serves on loopback, or behind a link of --link <spec> (leave out --network)`)
  if (values.ca !== undefined) throw new UsageError('replay and --ca: the replay trusts the CA it makes for its own certificates; --ca is the site experiment\'s')
  if (values['lanes-at'] !== undefined) throw new UsageError('replay and --lanes-at: the replay serves the HAR, not lanes')
  const protocols = (values.protocols ?? REPLAY_DEFAULT.join(',')).split(',').map(p => p.trim()).filter(Boolean)
  const unknown = protocols.filter(p => !REPLAY_PROTOCOLS.includes(p))
  if (!protocols.length || unknown.length) throw new UsageError(`--protocols must list ${REPLAY_PROTOCOLS.join(', ')} (comma-separated) for replay; got "${values.protocols}"`)
  const variants = variantsOf(values.variants, protocols)
  const har = path.resolve(values.har)
  let facts
  try {
    facts = readReplay(har).facts
  } catch (err) {
    if (err.code === 'H2B_BAD_HAR') throw new UsageError(`--har: ${err.message}`)
    throw err
  }
  const allowFailed = allowFailedOf(values)
  refuseFailedRecording(values.har, facts.failed, allowFailed)
  return {
    har,
    protocols: REPLAY_PROTOCOLS.filter(p => protocols.includes(p)),
    pages: facts.pages,
    recordedAt: facts.recordedAt,
    ...(variants ? { variants } : {}),
    ...(allowFailed.length ? { allowFailed } : {}),
    ...(link ? { link } : {}),
    ...(values.visual ? { visual: true } : {})
  }
}

// --allow-failed (site, replay) → its URL patterns ([] without it); a UsageError for one that is empty.
function allowFailedOf (values) {
  const patterns = values['allow-failed'] || []
  for (const p of patterns) {
    try {
      patternOf(p)
    } catch (err) {
      throw new UsageError(`--allow-failed: ${err.message}`)
    }
  }
  return patterns
}

// A recording whose requests failed below HTTP is not the site: replayed, the page would lack those responses as
// the recording did. Refused (a UsageError naming the first failures and the origins) unless --allow-failed
// expects every one of them.
function refuseFailedRecording (file, failed, patterns) {
  const allow = allowList(patterns)
  const unexpected = failed.filter(f => !allow(f.url))
  if (!unexpected.length) return
  const origins = failedOrigins(unexpected).map(o => `${o.origin} ${o.failed} (${o.errors.join(', ')})`).join('; ')
  throw new UsageError(`--har ${file}: ${unexpected.length} recorded request${unexpected.length === 1 ? '' : 's'} failed below HTTP, so the recording lacks ${unexpected.length === 1 ? 'its response' : 'their responses'} (${origins}; first: ${unexpected[0].url}). ` +
    'Record the site again once every request loads (a private CA: record --ca ca.pem), or replay it as recorded with --allow-failed <url pattern> for each (* for any run of characters)')
}

// --variants (experiment replay) → ['plain', …the variants asked, in VARIANTS' order] or null (plain alone);
// a UsageError naming an unknown one, or a variant one of --protocols cannot serve.
function variantsOf (raw, protocols) {
  if (raw === undefined) return null
  const asked = raw.split(',').map(v => v.trim()).filter(Boolean)
  const unknown = asked.filter(v => !VARIANTS.includes(v))
  if (!asked.length || unknown.length) throw new UsageError(`--variants must list ${VARIANTS.filter(v => v !== 'plain').join(', ')} (comma-separated; plain is always replayed beside them); got "${raw}"`)
  for (const v of asked) {
    for (const p of protocols) {
      const why = variantRefusal(v, p)
      if (why) throw new UsageError(`--variants ${v} with --protocols ${p}: ${why}`)
    }
  }
  const variants = VARIANTS.filter(v => v === 'plain' || asked.includes(v))
  return variants.length > 1 ? variants : null
}

// --shard i/n → { index: i, count: n }.
function shardOf (raw, values) {
  const m = /^(\d{1,4})\/(\d{1,4})$/.exec(raw.trim())
  if (!m) throw new UsageError(`--shard must be i/n, shard i of n (1 ≤ i ≤ n ≤ 1000), e.g. --shard 2/4; got "${raw}"`)
  const [index, count] = [Number(m[1]), Number(m[2])]
  if (count < 1 || count > 1000 || index < 1 || index > count) throw new UsageError(`--shard ${raw}: i must be 1…n and n 1…1000`)
  if (values.network !== 'devtools' && values.seed === undefined) {
    throw new UsageError(`--shard behind the link needs --seed <n>: every shard must meet the same drops for the merged report to compare its cells as one run's (any whole number; record it with the shards)`)
  }
  return { index, count }
}

module.exports = { parseRunArgs, HELP, DEFAULT_REPEATS }
