'use strict'

// Any HTTPS site, measured per protocol: `npm run bench -- site --url https://…`.
// WebPageTest and sitespeed.io measure any URL in several browsers; seeds 002
// and 003 measured real servers (nghttp2.org, Cloudflare's blog). Here each
// run forces one protocol on the browser (harness/force-protocol.js), loads
// the page cold in a new profile and then again as a repeat view, and records
// per load TTFB, FCP, LCP, onload, requests, bytes, connections per origin and
// the protocol of every request, with a HAR file (bench/cells/site-url.js).
// Its cells come from the command line (--url, --protocols, --ca): one a URL.
// Not part of `all`: it needs a URL of the user's.

const VIEWS = ['cold', 'repeat']

module.exports = {
  id: 'site',
  title: 'Any HTTPS site per protocol: cold and repeat-view loads of --url with HTTP/1.1, HTTP/2 or HTTP/3 forced, in Chromium and Firefox, on the real path or behind --link (not in all)',
  kind: 'site-url',
  needsUrl: true,
  views: VIEWS,
  sweep: { param: 'preset', label: 'page' },
  // The cells are the command line's (cellsFrom); none without --url.
  cells: [],
  cellsFrom: site => site
    ? site.urls.map(url => ({
        url,
        preset: url,
        protocols: site.protocols,
        ca: site.ca,
        link: site.link || null,
        ...(site.visual ? { visual: true } : {}),
        ...(site.allowFailed && site.allowFailed.length ? { allowFailed: site.allowFailed } : {})
      }))
    : [],
  smokeCells: cells => cells,
  // Per repeat and protocol: a browser started, a cold load and a repeat view, each given about 5 s.
  estimateMs: cell => cell.protocols.length * 12000,
  source: null,
  VIEWS
}
