'use strict'

// A recorded site replayed per protocol: `npm run bench -- replay --har site.har`. The HAR (written by
// `npm run bench -- record`, or saved from DevTools) is served by server/replay over the protocol of each run,
// every recorded origin on its own loopback address (behind --link: one of the link's) and recorded port, responses as recorded after the
// recorded server time; each recorded page is loaded cold and as a repeat view in Chromium, measured as the
// site experiment measures a load (bench/cells/replay.js). Its cells come from the command line (--har,
// --protocols): one a recorded page. Not part of `all`: it needs a HAR of the user's.
const VIEWS = ['cold', 'repeat']

module.exports = {
  id: 'replay',
  title: 'A recorded site (--har) replayed per protocol on loopback or behind --link: cold and repeat-view loads of each recorded page with HTTP/1.1, HTTP/2 (node:http2, spdy, or h2e: HTTP/3\'s own Caddy over TCP) or HTTP/3 (Caddy) served and forced, in Chromium and Firefox (not in all)',
  kind: 'replay',
  // Like site's --url: an input of the user's, so not in `all`.
  needsUrl: true,
  views: VIEWS,
  sweep: { param: 'preset', label: 'page' },
  // The cells are the command line's (cellsFrom); none without --har.
  cells: [],
  // --variants: the server's behaviours beside plain (bench/cells/replay.js);
  // --link: the cell's link (bench/cells/replay.js: the replay on the link's addresses, Chromium behind it).
  cellsFrom: (site, replay) => replay
    ? replay.pages.map(url => ({
        url,
        preset: url,
        har: replay.har,
        protocols: replay.protocols,
        ...(replay.variants ? { variants: replay.variants } : {}),
        ...(replay.link ? { link: replay.link } : {}),
        ...(replay.visual ? { visual: true } : {}),
        ...(replay.allowFailed && replay.allowFailed.length ? { allowFailed: replay.allowFailed } : {})
      }))
    : [],
  smokeCells: cells => cells,
  // Per repeat, protocol and variant: a replay and a browser started, a cold load and a repeat view.
  estimateMs: cell => cell.protocols.length * (cell.variants || ['plain']).length * 12000,
  source: null,
  VIEWS
}
