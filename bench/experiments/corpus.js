'use strict'

// Not in the seeds: issue 32's study. A corpus of generated pages whose requests, bytes, origins and server times
// follow the HTTP Archive / Web Almanac figures (bench/corpus/distributions.js: each figure with its source, and
// what was assumed where none was found), each page a HAR in the recorder's format, replayed by server/replay
// over HTTP/1.1 (node:https), HTTP/2 (node:http2, and h2e: Caddy over TCP, the server of HTTP/3) and HTTP/3
// (Caddy) behind four links, each load in Chromium cold and as a repeat view (kind replay: bench/cells/replay.js;
// a cell is one page behind one link). It asks
// Trevisan et al.'s finding, "HTTP/3 provides sizable benefits only in scenarios with high latency or very poor
// bandwidth … we do not find benefits in case of high packet loss" (Measuring HTTP/3: Adoption and Performance,
// MedComNet 2021, arXiv:2102.12358, abstract), of pages like the web's (claims: bench/report/claims/corpus.js).
//
// Their method: ~12 k real websites announcing HTTP/3 (from the HTTP Archive), visited over the internet from
// their campus by BrowserTime 10.9 (Chromium, in Docker), 5 visits per protocol (h1: --disable-http2
// --disable-quic; h2: --disable-quic; h3: --quic-version=h3-29 with --origin-to-force-quic-on for the origins that
// announced it), under tc-netem on the client's Docker bridge (the direction towards the browser): added delay,
// loss of 1, 2 and 5 %, rates of 1, 2 and 5 Mbit/s (their scripts: github.com/SmartData-Polito/h3-benchmark,
// browsing-campaign/); page load time (onLoad) and visual metrics. The path's own latency, loss and the
// servers (Google's, Facebook's, Cloudflare's QUIC stacks, and third parties on HTTP/2 or HTTP/1.1 whatever was
// forced) were the real ones.
// Ours: generated pages, not real ones, every origin replayed on this machine (node:https, node:http2, and Caddy in
// front of node:http for both HTTP/3 and h2e, so the claims' HTTP/3 against HTTP/2 differs in protocol only, as a
// site's own servers' would; node:http2 the reference), every origin forced to the protocol (theirs:
// third parties stayed on what they spoke); the path is the packet-level link alone (link/: no internet, no real
// loss or cross traffic), the loss down only as theirs was; today's Chromium's HTTP/3 (RFC 9114), not h3-29;
// onload, cold, on a new browser per repeat as theirs (and a repeat view besides); the verdict engine on 5 or
// more repeats per page, not their per-site averages.
const { planPage } = require('../corpus')
const { parseLinkSpec, rttMsOf } = require('../../link/spec')

const SEED = 32 // issue 32
const PAGES = 10
// h2e (HTTP/2 from h3's own Caddy) is the claims' HTTP/2; h2 (node:http2) their reference; h1 rows of the tables.
const PROTOCOLS = ['h1', 'h2', 'h2e', 'h3']
const VIEWS = ['cold', 'repeat']

// The links: label (the claims select rows by it), the spec, and why. Every cell is behind the link (the same
// forwarder and the same Chromium in its namespace), the clean path too: a lossless 20 ms round trip, a nearby
// CDN's (no link at all would be loopback's 0.1 ms, a path no page is loaded over).
const LINKS = [
  { label: 'clean', spec: 'rtt=20ms', what: 'a clean path: 20 ms round trip, no rate limit, no loss' },
  { label: '4G', spec: 'Fast 4G', what: 'DevTools\' Fast 4G as a link: 8.1 Mbit/s down, 1.35 up, 165 ms round trip: the high-latency cell' },
  { label: '3G', spec: 'Regular 3G', what: 'DevTools\' Regular 3G (2016) as a link: 768 kbit/s down, 256 up, 100 ms round trip: the very-low-bandwidth cell (below Trevisan et al.\'s lowest, 1 Mbit/s)' },
  { label: 'lossy', spec: 'rtt=20ms,loss.down=5%', what: 'the clean path with 5 % loss towards the browser, Trevisan et al.\'s heaviest (no named preset is near: quic-loss is 30 %)' }
]
const SMOKE_LINKS = ['clean', 'lossy']
const SMOKE_AT = 0.1 // the smoke page: at p10 of both requests and bytes

const labelOf = cell => LINKS.find(l => l.spec === cell.link).label

// The cells of pages × links, each page planned (its URL, requests and bytes; bench/corpus/page.js) but its HAR
// written only when the cell runs (corpus: bench/cells/replay.js, into the run's out folder), so planning, --from
// and the tests that expand the experiment write nothing.
function corpusCells ({ smoke = false } = {}) {
  const wanted = smoke ? [{ index: 0, at: SMOKE_AT }] : Array.from({ length: PAGES }, (_, index) => ({ index, at: null }))
  const pages = wanted.map(({ index, at }) => ({ index, at, plan: planPage(SEED, index, { at }) }))
  const links = smoke ? LINKS.filter(l => SMOKE_LINKS.includes(l.label)) : LINKS
  return links.flatMap(link => pages.map(p => ({
    url: p.plan.url,
    preset: `${link.label} · page ${p.index + 1}${smoke ? ' (p10)' : ''}`,
    har: null,
    corpus: { seed: SEED, index: p.index, at: p.at },
    protocols: PROTOCOLS,
    link: link.spec,
    page: p.index + 1,
    pageRequests: p.plan.requests,
    pageBytes: p.plan.bytes
  })))
}

// One repeat of a cell: per protocol a replay and a browser started, then two loads, each its bytes at the link's
// rate (none: 1 Gbit/s) and some 20 round trips.
function estimateMs (cell) {
  const link = parseLinkSpec(cell.link, { traces: false })
  const rate = link.down.rateBps || 1e9
  const load = cell.pageBytes * 8 / rate * 1000 * 1.3 + 20 * rttMsOf(link) + 1000
  return cell.protocols.length * (VIEWS.length * load + 5000)
}

module.exports = {
  id: 'corpus',
  title: 'Generated pages (HTTP Archive / Web Almanac distributions) replayed over HTTP/1.1, HTTP/2 (node:http2, and Caddy over TCP: h2e) and HTTP/3 (Caddy) behind clean, 4G, 3G and lossy links: Trevisan et al. 2021, HTTP/3 against HTTP/2 from the same server (not in all)',
  kind: 'replay',
  // Its study takes hours: run by name only.
  inAll: false,
  views: VIEWS,
  sweep: { param: 'preset', label: 'link and page' },
  // The cells are planned when the run plans them (cellsFrom); none as data.
  cells: [],
  cellsFrom: (site, replay, { smoke = false } = {}) => corpusCells({ smoke }),
  smokeCells: cells => cells,
  estimateMs,
  source: null,
  SEED,
  PAGES,
  LINKS,
  PROTOCOLS,
  labelOf,
  corpusCells
}
