'use strict'

// The published figures the corpus of generated pages follows (bench/corpus/), each with its source, and the
// assumptions where no figure was found (each says so). Data only; ./sample.js draws from it. Sizes are in
// KB of 1,024 bytes, as the HTTP Archive's queries divide (bytesTotal / 1024), and are what went over the wire
// (the crawl's transfer sizes): the corpus serves them as they are, with no content coding.

const SOURCES = {
  pageWeight: {
    title: 'Web Almanac 2022, Part IV Chapter 21: Page Weight (HTTP Archive, June 2022 crawl, mobile)',
    year: 2022,
    url: 'https://almanac.httparchive.org/en/2022/page-weight'
  },
  thirdParties: {
    title: 'Web Almanac 2022, Part II Chapter 3: Third Parties (HTTP Archive, June 2022 crawl, mobile)',
    year: 2022,
    url: 'https://almanac.httparchive.org/en/2022/third-parties'
  },
  performance: {
    title: 'Web Almanac 2025: Performance (Chrome UX Report, mobile origins)',
    year: 2025,
    url: 'https://almanac.httparchive.org/en/2025/performance'
  }
}

// Requests per page, mobile: "Distribution of requests": "The 10th percentile mobile page loads 23 requests …, the
// 25th 41 …, the 50th 70 …, the 75th 102 …, and the 90th 168 requests on mobile".
const REQUESTS = {
  source: SOURCES.pageWeight,
  figure: 'Distribution of requests (mobile)',
  percentiles: { 10: 23, 25: 41, 50: 70, 75: 102, 90: 168 }
}

// Bytes per page, mobile, KB: "Page weight distribution by percentile": "The 10th percentile mobile page loads
// weigh 445 KB, the 25th 990 KB, the 50th 2,019 KB, the 75th 4,042 KB, and the 90th 8,082 KB".
const BYTES_KB = {
  source: SOURCES.pageWeight,
  figure: 'Page weight distribution by percentile (mobile)',
  percentiles: { 10: 445, 25: 990, 50: 2019, 75: 4042, 90: 8082 }
}

// The median mobile page by content type: "Median number of requests by content type" (22 images, 21 JavaScript
// files, 7 CSS files, 2 HTML files, 70 requests in total) and "Median page weight by content type" (881 KB of
// images, 461 KB of JavaScript, 68 KB of CSS, 30 KB of HTML). The rest of the median (18 requests and
// 2,019 − 1,440 = 579 KB) is "other": fonts, data, media. Each page is split in these shares.
const BY_TYPE = {
  source: SOURCES.pageWeight,
  figure: 'Median number of requests by content type; Median page weight by content type (mobile)',
  requests: { html: 2, css: 7, js: 21, image: 22, other: 18 },
  kb: { html: 30, css: 68, js: 461, image: 881, other: 2019 - 30 - 68 - 461 - 881 }
}

// Third parties, mobile: "94% of websites use at least one third party"; "The median number of third parties for
// all websites is 24 and 21 on desktop and mobile websites respectively" (Median number of third-party domains per
// page by rank); "Third-party requests account for 45% of all requests made by websites".
const THIRD_PARTIES = {
  source: SOURCES.thirdParties,
  figure: 'Percent of mobile pages that use at least one third-party; Median number of third-party domains per page by rank; third-party share of requests',
  pagesWithAny: 0.94,
  medianDomains: 21,
  requestShare: 0.45
}

// ASSUMED (no published figure found): how a page's third-party domains follow its third-party requests. The
// chapter gives only the median count (21) and the share of requests (45 %): at the median page's 69
// subresources, 45 % is 31 third-party requests over 21 domains, so the corpus gives every page
// round(third-party requests × 21 / 31) domains (each at least one request). No percentiles of the count were found.
// Domains are served, as CDNs serve many names, by providers: one certificate (a wildcard for its names) and one
// address each, DOMAINS_PER_PROVIDER names a provider, at most MAX_PROVIDERS per page (a browser may coalesce
// HTTP/2 and HTTP/3 connections to names of one address and certificate, as it does on the web).
const THIRD_PARTY_LAYOUT = {
  assumed: 'third-party domains in proportion to third-party requests (21 at the median page); 4 names per provider certificate and address, at most 8 providers',
  domainsPerRequest: 21 / Math.round(0.45 * 69),
  domainsPerProvider: 4,
  maxProviders: 8
}

// ASSUMED: the split of "other" (18 requests at the median) into web fonts (loaded by @font-face from the first
// stylesheet) and data fetched by the page (fetch() of JSON): a quarter fonts, at most 6, the rest data; and
// images half PNG, half JPEG (the chapter's formats by weight are JPEG, WebP and PNG; the corpus makes only the
// two every decoder has).
const OTHER_SPLIT = {
  assumed: 'other requests: a quarter web fonts (at most 6), the rest JSON fetched by the page; images half PNG, half JPEG',
  fontShare: 0.25,
  maxFonts: 6,
  jpegShare: 0.5
}

// ASSUMED: the dependence of bytes on requests. The chapter gives each distribution alone; the corpus draws the two
// through a Gaussian copula of correlation 0.7 (each keeps its published percentiles exactly: only their pairing
// is assumed), so a page of many requests tends to be heavy.
const REQUESTS_BYTES_CORRELATION = { assumed: 'requests and bytes drawn with a Gaussian copula of correlation 0.7', rho: 0.7 }

// ASSUMED: the spread of single responses within a type: each request's share of its type's bytes drawn from a
// log-normal of σ 1 (a few large images, many small ones), every body at least MIN_BODY bytes.
const WITHIN_TYPE = { assumed: 'each response\'s share of its type\'s bytes log-normal, σ = 1; at least 256 bytes', sigma: 1, minBody: 256 }

// Server time (what the replay waits before answering: the recorder's serverTimeMs). No published distribution
// of the server's own time was found: the HTTP Archive's and CrUX's time to first byte include DNS, TCP and TLS
// setup and redirects, and the corpus's link adds its own round trips. For scale, CrUX 2025 (Performance
// chapter, "TTFB performance by year and device"): 44 % of mobile origins have a good p75 TTFB (under 0.8 s),
// 40 % need improvement (0.8–1.8 s), 17 % poor. ASSUMED: the document's server time at these percentiles (ms),
// below the TTFB at every point; subresources, static files from a cache or CDN, far shorter.
const SERVER_TIME_MS = {
  source: SOURCES.performance,
  figure: 'TTFB performance by year and device (for scale only: no figure of server time alone found)',
  assumed: 'document server time p10 40, p25 80, p50 150, p75 300, p90 600 ms; subresources p10 1, p25 2, p50 5, p75 15, p90 40 ms',
  document: { 10: 40, 25: 80, 50: 150, 75: 300, 90: 600 },
  subresource: { 10: 1, 25: 2, 50: 5, 75: 15, 90: 40 }
}

// ASSUMED: beyond the published p10 and p90 each distribution goes on at the slope of its nearest segment (log
// scale), and draws are kept within its p2 … p98 (no page of 390 MB, the chapter's largest).
const TAILS = { assumed: 'tails at the nearest segment\'s log-linear slope, clipped to p2 … p98', low: 0.02, high: 0.98 }

module.exports = {
  SOURCES, REQUESTS, BYTES_KB, BY_TYPE, THIRD_PARTIES, THIRD_PARTY_LAYOUT, OTHER_SPLIT,
  REQUESTS_BYTES_CORRELATION, WITHIN_TYPE, SERVER_TIME_MS, TAILS
}
