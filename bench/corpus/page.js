'use strict'

// One generated page of the corpus, drawn from the published distributions (./distributions.js) by a seeded
// PRNG (./sample.js): how many requests and bytes, split by type in the median page's shares, each request's
// size, which requests go to third parties and on which domains and providers, and each response's server
// time. A plan only (URLs, sizes, times): ./har.js makes the bodies and the HAR. The same (seed, index) gives
// the same plan.
const crypto = require('node:crypto')
const D = require('./distributions')
const { prng, normal, normalCdf, quantile, apportion, shuffle } = require('./sample')
const { pngMin, jpegMin } = require('./images')

const FIRST_PARTY = 'www.corpus.example'
const TYPES = ['html', 'css', 'js', 'image', 'other']
const EXT = { css: 'css', js: 'js', png: 'png', jpeg: 'jpg', font: 'woff2', json: 'json', frame: 'html' }
const DIR = { css: 'css', js: 'js', png: 'img', jpeg: 'img', font: 'font', json: 'data', frame: 'frame' }

// The providers' and domains' names: provider j (from 1) is cdn<j>.corpus.example, its k-th name s<k>.cdn<j>….
const providerName = j => `cdn${j}.corpus.example`
const domainName = (j, k) => `s${k}.${providerName(j)}`

// The drawn figures of page `index` of corpus `seed` → { requests, bytes, uRequests, uBytes }. `at` forces both
// quantiles (a page "at p10").
function drawSize (random, at = null) {
  const z1 = normal(random)
  const z2 = D.REQUESTS_BYTES_CORRELATION.rho * z1 + Math.sqrt(1 - D.REQUESTS_BYTES_CORRELATION.rho ** 2) * normal(random)
  const uRequests = at ?? normalCdf(z1)
  const uBytes = at ?? normalCdf(z2)
  const tails = { low: D.TAILS.low, high: D.TAILS.high }
  return {
    uRequests,
    uBytes,
    requests: Math.max(3, Math.round(quantile(D.REQUESTS.percentiles, uRequests, tails))),
    bytes: Math.round(quantile(D.BYTES_KB.percentiles, uBytes, tails) * 1024)
  }
}

// Page `index` of the corpus of `seed` → its plan:
// { seed, index, url, requests, bytes (drawn), drawn: { uRequests, uBytes }, thirdParty: { domains, providers },
//   document: { url, size, serverTimeMs }, resources: [{ kind, url, size, serverTimeMs, thirdParty }],
//   origins: [{ origin, host, provider (0: first party), address, certNames, certId }] }
// `at`: both quantiles forced (the smoke page).
function planPage (seed, index, { at = null } = {}) {
  const random = prng(seed, index)
  const size = drawSize(random, at)
  const subresources = size.requests - 1
  // Requests by type (the document is one of the html); each page at least one stylesheet (its fonts' rules).
  const counts = Object.fromEntries(TYPES.map((t, i) => [t, apportion(size.requests, TYPES.map(x => D.BY_TYPE.requests[x]))[i]]))
  counts.html = Math.max(1, counts.html)
  if (!counts.css) { counts.css = 1; counts[['other', 'image', 'js'].find(t => counts[t] > 0)]-- }
  const total = TYPES.reduce((n, t) => n + counts[t], 0)
  if (total !== size.requests) counts.image += size.requests - total
  const fonts = Math.min(D.OTHER_SPLIT.maxFonts, Math.round(counts.other * D.OTHER_SPLIT.fontShare))
  const kinds = [
    ...Array(counts.html - 1).fill('frame'),
    ...Array(counts.css).fill('css'),
    ...Array(counts.js).fill('js'),
    ...Array(counts.image).fill(null).map(() => random() < D.OTHER_SPLIT.jpegShare ? 'jpeg' : 'png'),
    ...Array(fonts).fill('font'),
    ...Array(counts.other - fonts).fill('json')
  ]
  // Bytes by type in the median page's shares, each type's among its requests log-normally.
  const typeOf = kind => ({ frame: 'html', css: 'css', js: 'js', png: 'image', jpeg: 'image', font: 'other', json: 'other' })[kind]
  const typeBytes = Object.fromEntries(TYPES.map((t, i) => [t, apportion(size.bytes, TYPES.map(x => D.BY_TYPE.kb[x]))[i]]))
  const weights = kinds.map(() => Math.exp(D.WITHIN_TYPE.sigma * normal(random)))
  const sizes = new Array(kinds.length).fill(0)
  // The document is one of the html type's requests: its share is a weight like the frames'.
  const docWeight = Math.exp(D.WITHIN_TYPE.sigma * normal(random))
  let documentSize = 0
  for (const t of TYPES) {
    const members = kinds.map((k, i) => typeOf(k) === t ? i : -1).filter(i => i >= 0)
    const w = members.map(i => weights[i])
    if (t === 'html') w.unshift(docWeight)
    const split = apportion(typeBytes[t], w)
    if (t === 'html') documentSize = split.shift()
    members.forEach((i, k) => { sizes[i] = Math.max(minimumOf(kinds[i]), split[k]) })
  }
  // Third parties: on 94 % of pages; 45 % of the requests; domains in proportion; providers of 4 names.
  const tpRandom = random()
  const tpRequests = tpRandom < D.THIRD_PARTIES.pagesWithAny
    ? Math.min(subresources, Math.round(D.THIRD_PARTIES.requestShare * size.requests))
    : 0
  const domains = tpRequests ? Math.max(1, Math.min(tpRequests, Math.round(tpRequests * D.THIRD_PARTY_LAYOUT.domainsPerRequest))) : 0
  const providers = domains ? Math.min(D.THIRD_PARTY_LAYOUT.maxProviders, Math.ceil(domains / D.THIRD_PARTY_LAYOUT.domainsPerProvider)) : 0
  const domainHosts = Array.from({ length: domains }, (_, d) => ({
    host: domainName(1 + d % providers, 1 + Math.floor(d / providers)),
    provider: 1 + d % providers
  }))
  const order = shuffle(kinds.map((_, i) => i), random)
  const hostOf = new Array(kinds.length).fill(null) // null: first party
  order.slice(0, tpRequests).forEach((i, k) => { hostOf[i] = domainHosts[k < domains ? k : Math.floor(random() * domains)] })
  const serverTime = percentiles => Math.round(quantile(percentiles, random(), { low: D.TAILS.low, high: D.TAILS.high }))
  const numbering = {}
  const resources = kinds.map((kind, i) => {
    numbering[kind] = (numbering[kind] || 0) + 1
    const host = hostOf[i] ? hostOf[i].host : FIRST_PARTY
    return {
      kind,
      url: `https://${host}/${DIR[kind]}/${numbering[kind]}.${EXT[kind]}`,
      size: sizes[i],
      serverTimeMs: serverTime(D.SERVER_TIME_MS.subresource),
      thirdParty: Boolean(hostOf[i])
    }
  })
  const url = `https://${FIRST_PARTY}/`
  const origins = [
    { origin: `https://${FIRST_PARTY}`, host: FIRST_PARTY, provider: 0, address: '192.0.2.1', certNames: [FIRST_PARTY], certId: certIdOf(FIRST_PARTY) },
    ...domainHosts.filter(d => resources.some(r => r.url.startsWith(`https://${d.host}/`))).map(d => ({
      origin: `https://${d.host}`,
      host: d.host,
      provider: d.provider,
      address: `198.51.100.${d.provider}`,
      certNames: [`*.${providerName(d.provider)}`],
      certId: certIdOf(providerName(d.provider))
    }))
  ]
  return {
    seed,
    index,
    url,
    requests: size.requests,
    bytes: size.bytes,
    drawn: { uRequests: size.uRequests, uBytes: size.uBytes },
    thirdParty: { requests: tpRequests, domains: origins.length - 1, providers },
    document: { url, size: documentSize, serverTimeMs: serverTime(D.SERVER_TIME_MS.document) },
    resources,
    origins
  }
}

// The smallest body a kind can have (a valid image's framing; at least WITHIN_TYPE.minBody).
function minimumOf (kind) {
  if (kind === 'png') return Math.max(D.WITHIN_TYPE.minBody, pngMin)
  if (kind === 'jpeg') return Math.max(D.WITHIN_TYPE.minBody, jpegMin + 4)
  return D.WITHIN_TYPE.minBody
}

// A certificate's recorded id (the recorder's: the sha256 hex of its DER): here of its name.
const certIdOf = name => crypto.createHash('sha256').update(`corpus certificate ${name}`).digest('hex')

module.exports = { planPage, drawSize, providerName, domainName, FIRST_PARTY, TYPES }
