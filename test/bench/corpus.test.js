'use strict'

// The corpus of generated pages (bench/corpus/) and its experiment (bench/experiments/corpus.js) with its claims:
// the same seed gives byte-identical HARs; 2,000 drawn pages reproduce the published percentiles within the
// sampling error of a quantile (3 standard deviations of the fraction of draws below the figure); every page a
// HAR the replay reads without assuming anything, whose document names every other entry and nothing else;
// images that decode (PNG chunks and CRCs, the pixel inflated; JPEG's segments in order); the cells and claims.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const zlib = require('node:zlib')
const D = require('../../bench/corpus/distributions')
const { planPage, harOf, pageHarText, writeCorpus, corpusHarFile, bodyBytesOf } = require('../../bench/corpus')
const { archiveFromHar } = require('../../server/replay/archive')
const { assumptionsOf, pagesOf } = require('../../bench/cells/replay-plan')
const { experimentById, select, cellsOf } = require('../../bench/experiments')
const { parseLinkSpec } = require('../../link/spec')
const { verdicts } = require('../../bench/report/runner/report-verdicts')
const { withRatios } = require('../../bench/report/runner/conclusions')
const { row } = require('../../bench/cells/helpers')
const claims = require('../../bench/report/claims/corpus')

const N = 2000
const plans = Array.from({ length: N }, (_, i) => planPage(7, i))

// The fraction of `values` below `figure` and at or below it: the quantile p is reproduced when p lies within
// [below − tol, atOrBelow + tol], tol three standard errors of a fraction at p over n draws.
function assertPercentiles (values, percentiles, what, scale = 1) {
  for (const [p, figure] of Object.entries(percentiles)) {
    const q = Number(p) / 100
    const tol = 3 * Math.sqrt(q * (1 - q) / values.length)
    const v = figure * scale
    const below = values.filter(x => x < v).length / values.length
    const atOrBelow = values.filter(x => x <= v).length / values.length
    assert.ok(below - tol <= q && q <= atOrBelow + tol, `${what} p${p}: the figure ${figure} has ${(below * 100).toFixed(1)}–${(atOrBelow * 100).toFixed(1)} % of ${values.length} draws below it, p${p} ± ${(tol * 100).toFixed(1)}`)
  }
}

const median = list => { const s = list.slice().sort((a, b) => a - b); return s[(s.length - 1) >> 1] }

// Every URL an HTML or CSS body names (src, href, url()); data: URLs left out.
function referenced (text) {
  const out = []
  for (const re of [/(?:src|href)="([^"]+)"/g, /url\("([^"]+)"\)/g]) {
    let m
    while ((m = re.exec(text))) if (!m[1].startsWith('data:')) out.push(m[1].replace(/&amp;/g, '&'))
  }
  const fetched = /for \(const u of (\[[^\]]*\])\) fetch/.exec(text)
  if (fetched) out.push(...JSON.parse(fetched[1]))
  return out
}

// A PNG's chunks, each CRC checked → [{ type, data }]; throws on a bad one.
function pngChunks (buf) {
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature')
  const chunks = []
  for (let at = 8; at < buf.length;) {
    const length = buf.readUInt32BE(at)
    const type = buf.subarray(at + 4, at + 8).toString('latin1')
    const data = buf.subarray(at + 8, at + 8 + length)
    assert.equal(buf.readUInt32BE(at + 8 + length), zlib.crc32(data, zlib.crc32(Buffer.from(type, 'latin1'))), `${type}'s CRC`)
    chunks.push({ type, data })
    at += 12 + length
  }
  return chunks
}

// A JPEG's markers in order (SOI, the segments with their lengths, entropy data after SOS, EOI last).
function jpegMarkers (buf) {
  assert.deepEqual([...buf.subarray(0, 2)], [0xff, 0xd8], 'SOI')
  const markers = ['SOI']
  let at = 2
  for (;;) {
    assert.equal(buf[at], 0xff, `a marker at ${at}`)
    const m = buf[at + 1]
    const length = buf.readUInt16BE(at + 2)
    markers.push(m.toString(16))
    at += 2 + length
    if (m === 0xda) break
  }
  const eoi = buf.indexOf(Buffer.from([0xff, 0xd9]), at)
  assert.equal(eoi, buf.length - 2, 'EOI ends the file, after the entropy-coded data')
  markers.push('EOI')
  return markers
}

describe('corpus: generated pages from published distributions (bench/corpus/)', function () {
  this.timeout(120000)

  it('the same seed gives byte-identical HARs, another seed other pages; a written corpus is those bytes', () => {
    for (const i of [0, 1, 5]) assert.equal(pageHarText(32, i), pageHarText(32, i))
    assert.notEqual(pageHarText(32, 0), pageHarText(33, 0))
    const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-corpus-test-')))
    try {
      const written = dirs.map(dir => writeCorpus(32, [{ index: 0 }, { index: 1, at: 0.1 }], { dir }))
      for (const k of [0, 1]) assert.ok(fs.readFileSync(written[0][k].file).equals(fs.readFileSync(written[1][k].file)))
      assert.equal(fs.readFileSync(written[0][0].file, 'utf8'), pageHarText(32, 0))
      assert.equal(fs.readFileSync(written[0][1].file, 'utf8'), pageHarText(32, 1, { at: 0.1 }))
    } finally {
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it(`${N} pages reproduce the Web Almanac 2022 percentiles of requests and bytes per page (mobile)`, () => {
    assertPercentiles(plans.map(p => p.requests), D.REQUESTS.percentiles, 'requests per page')
    assertPercentiles(plans.map(p => p.bytes), D.BYTES_KB.percentiles, 'bytes per page', 1024)
    // Each page's bodies are what was drawn, and never much more (a body's framing or floor can add a few bytes).
    for (const p of plans.slice(0, 300)) {
      const made = p.document.size + p.resources.reduce((n, r) => n + r.size, 0)
      assert.ok(made >= p.bytes - 1 && made <= p.bytes * 1.02 + 2048, `page ${p.index}: ${made} bytes made of ${p.bytes} drawn`)
      assert.equal(p.resources.length + 1, p.requests)
    }
  })

  it('the median page by type, third parties (94 % of pages, 45 % of requests, 21 domains at the median), server times', () => {
    const count = kinds => plans.map(p => p.resources.filter(r => kinds.includes(r.kind)).length)
    assert.ok(Math.abs(median(count(['png', 'jpeg'])) - D.BY_TYPE.requests.image) <= 2, `images ${median(count(['png', 'jpeg']))}`)
    assert.ok(Math.abs(median(count(['js'])) - D.BY_TYPE.requests.js) <= 2, `scripts ${median(count(['js']))}`)
    assert.ok(Math.abs(median(count(['css'])) - D.BY_TYPE.requests.css) <= 1, `stylesheets ${median(count(['css']))}`)
    const any = plans.filter(p => p.thirdParty.requests > 0).length / N
    const tol = 3 * Math.sqrt(0.94 * 0.06 / N)
    assert.ok(Math.abs(any - D.THIRD_PARTIES.pagesWithAny) <= tol, `${any} of pages with a third party`)
    const withAny = plans.filter(p => p.thirdParty.requests > 0)
    const share = withAny.reduce((n, p) => n + p.resources.filter(r => r.thirdParty).length, 0) / withAny.reduce((n, p) => n + p.requests, 0)
    assert.ok(Math.abs(share - D.THIRD_PARTIES.requestShare) <= 0.01, `third-party share of requests ${share}`)
    assert.ok(Math.abs(median(withAny.map(p => p.thirdParty.domains)) - D.THIRD_PARTIES.medianDomains) <= 2, `median domains ${median(withAny.map(p => p.thirdParty.domains))}`)
    for (const p of withAny) assert.ok(p.thirdParty.providers <= D.THIRD_PARTY_LAYOUT.maxProviders)
    assertPercentiles(plans.map(p => p.document.serverTimeMs), D.SERVER_TIME_MS.document, 'document server time')
    assertPercentiles(plans.slice(0, 200).flatMap(p => p.resources.map(r => r.serverTimeMs)), D.SERVER_TIME_MS.subresource, 'subresource server time')
  })

  it('every page a HAR the replay reads with nothing assumed; its document names every other entry, and nothing more', () => {
    for (let i = 0; i < 40; i++) {
      const plan = planPage(32, i)
      const har = JSON.parse(JSON.stringify(harOf(plan)))
      const archive = archiveFromHar(har, { file: `page ${i}` })
      assert.deepEqual(assumptionsOf(archive), [], `page ${i}`)
      assert.equal(archive.source, 'h2bench')
      assert.equal(archive.summary.served, har.log.entries.length)
      assert.deepEqual(pagesOf(har), [plan.url])
      assert.equal(archive.origins.length, plan.origins.length)
      for (const o of archive.origins) assert.equal(o.rttMs, 0)
      const urls = har.log.entries.map(e => e.request.url)
      assert.equal(new Set(urls).size, urls.length)
      const body = url => { const e = har.log.entries.find(x => x.request.url === url); return Buffer.from(e.response.content.text, e.response.content.encoding === 'base64' ? 'base64' : 'latin1') }
      const named = new Set([
        ...referenced(body(plan.url).toString('latin1')),
        ...plan.resources.filter(r => r.kind === 'css').flatMap(r => referenced(body(r.url).toString('latin1')))
      ])
      assert.deepEqual([...named].filter(u => !urls.includes(u)), [], `page ${i}: named, not in the HAR`)
      assert.deepEqual(urls.slice(1).filter(u => !named.has(u)), [], `page ${i}: in the HAR, never named`)
      for (const e of har.log.entries) {
        assert.equal(body(e.request.url).length, e.response.content.size)
        assert.equal(e.response.headers.find(h => h.name === 'content-length').value, String(e.response.content.size))
      }
      assert.equal(bodyBytesOf(har), har.log.entries.reduce((n, e) => n + body(e.request.url).length, 0))
    }
  })

  it('images decode: PNGs of valid chunks and CRCs whose pixel inflates, JPEGs whose segments run SOI … SOS … EOI', () => {
    let pngs = 0
    let jpegs = 0
    for (let i = 0; i < 12; i++) {
      const har = harOf(planPage(32, i))
      for (const e of har.log.entries) {
        const buf = Buffer.from(e.response.content.text || '', 'base64')
        if (e.response.content.mimeType === 'image/png') {
          const chunks = pngChunks(buf)
          assert.deepEqual(chunks.map(c => c.type), ['IHDR', 'paDd', 'IDAT', 'IEND'])
          assert.equal(chunks[0].data.readUInt32BE(0), 1)
          assert.deepEqual([...zlib.inflateSync(chunks[2].data)], [0, 0x80])
          pngs++
        } else if (e.response.content.mimeType === 'image/jpeg') {
          const markers = jpegMarkers(buf)
          assert.deepEqual(markers.filter(m => m !== 'fe'), ['SOI', 'db', 'c0', 'c4', 'c4', 'da', 'EOI'])
          jpegs++
        }
      }
    }
    assert.ok(pngs > 10 && jpegs > 10, `${pngs} PNGs, ${jpegs} JPEGs`)
  })
})

describe('corpus: the experiment (bench/experiments/corpus.js) and its claims (bench/report/claims/corpus.js)', function () {
  this.timeout(120000)
  const e = experimentById('corpus')

  it('kind replay, not in all; cells of 10 pages × 4 links (clean, 4G, 3G, lossy), each HAR written only when its cell runs; --smoke 1 small page × 2 links', () => {
    assert.equal(e.kind, 'replay')
    assert.ok(!select(['all']).some(x => x.id === 'corpus'))
    const cells = cellsOf(e)
    assert.equal(cells.length, 40)
    assert.deepEqual([...new Set(cells.map(c => c.link))], ['rtt=20ms', 'Fast 4G', 'Regular 3G', 'rtt=20ms,loss.down=5%'])
    for (const c of cells) {
      // h2e beside h3: HTTP/2 over TCP from the same Caddy, the claims' other side; h2 (node:http2) their reference.
      assert.deepEqual(c.protocols, ['h1', 'h2', 'h2e', 'h3'])
      assert.equal(c.url, 'https://www.corpus.example/')
      assert.doesNotThrow(() => parseLinkSpec(c.link, { traces: false }))
      assert.equal(c.har, null)
      assert.ok(e.estimateMs(c) > 0)
    }
    assert.deepEqual(cells.slice(0, 10).map(c => c.corpus), Array.from({ length: 10 }, (_, index) => ({ seed: e.SEED, index, at: null })))
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-corpus-cell-'))
    try {
      const file = corpusHarFile(cells[0].corpus, path.join(dir, 'corpus'))
      assert.equal(path.dirname(file), path.join(dir, 'corpus'))
      assert.equal(fs.readFileSync(file, 'utf8'), pageHarText(e.SEED, 0))
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
    const smoke = cellsOf(e, { smoke: true })
    assert.deepEqual(smoke.map(c => c.preset), ['clean · page 1 (p10)', 'lossy · page 1 (p10)'])
    assert.deepEqual(smoke[0].corpus, smoke[1].corpus)
    assert.equal(smoke[0].pageRequests, D.REQUESTS.percentiles[10])
  })

  // Rows as bench/cells/replay.js makes them (site's rows: lane the protocol, mode the view, linkSpec the link's):
  // per link [h3, h2e, h2] cold onload medians (h2, node:http2, as h2e's unless given).
  function rows (byLink) {
    const out = []
    e.LINKS.forEach((link, li) => {
      const [h3, h2e, h2 = h2e] = byLink[link.label] || [null, null]
      for (let page = 0; page < 2; page++) {
        const cell = { url: 'https://www.corpus.example/', preset: `${link.label} · page ${page + 1}`, link: link.spec, protocols: ['h1', 'h2', 'h2e', 'h3'] }
        const index = li * 2 + page
        for (const [lane, ms] of [['h1', 1500], ['h2', h2], ['h2e', h2e], ['h3', h3]]) {
          if (ms === null) continue
          for (const mode of ['cold', 'repeat']) {
            const samples = [0.99, 1.01, 1, 0.995, 1.005].map(f => ms * f)
            out.push(row({ entry: { experiment: e, index, cell }, lane, mode, samples, failures: 0, protocol: lane, asked: 5, note: null, extra: { network: 'link', linkSpec: parseLinkSpec(link.spec, { traces: false }).text } }))
          }
        }
      }
    })
    return withRatios(out)
  }

  it('four claims of h3 against h2e (the same Caddy: protocol only), then the same four against node:http2 as references of their own (protocol and server), each naming what its sides differ in', () => {
    assert.equal(claims.length, 8)
    assert.deepEqual(claims.map(c => [c.b.lane, c.a.lane]), [...Array(4).fill(['h3', 'h2e']), ...Array(4).fill(['h3', 'h2'])])
    for (const c of claims.slice(0, 4)) {
      assert.doesNotMatch(c.text, /^Reference/)
      assert.match(c.text, /; the sides differ in protocol only \(h3 against h2e: the same Caddy, QUIC against TCP\)$/)
    }
    claims.slice(4).forEach((c, i) => {
      assert.match(c.text, /^Reference: .* HTTP\/3 from Caddy loads the pages .* HTTP\/2 from node:http2; the sides differ in protocol and server \(h3 against h2: Caddy over QUIC against node:http2\)$/)
      assert.equal(c.form, claims[i].form)
      assert.deepEqual(c.source, claims[i].source)
    })
  })

  it('the claims hold as Trevisan et al. found when h3 wins at 4G and 3G and ties on the clean and lossy links; not when it loses there; not measured without rows', () => {
    const found = verdicts(e, rows({ clean: [1000, 1000], '4G': [2000, 3000], '3G': [8000, 12000], lossy: [1500, 1500] }))
    assert.deepEqual(found.map(v => v.status), Array(8).fill('reproduced'), found.map(v => v.detail).join('\n'))
    const against = verdicts(e, rows({ clean: [700, 1000], '4G': [3000, 2000], '3G': [12000, 8000], lossy: [1000, 1500] }))
    assert.deepEqual(against.map(v => v.status), Array(8).fill('not reproduced'))
    assert.deepEqual(verdicts(e, rows({})).map(v => v.status), Array(8).fill('not measured'))
    assert.match(found[0].detail || '', /4G \(.*\): h3's cold onload over h2e's per page 4G · page 1 0\.67×/)
    assert.match(found[4].detail || '', /h3's cold onload over h2's per page/)
  })

  it('where the server, not the protocol, makes the difference (h3 ties h2e, node:http2 slower): the same-server claims and the references part', () => {
    const found = verdicts(e, rows({ clean: [1000, 1000, 1400], '4G': [2000, 2000, 3000], '3G': [8000, 8000, 12000], lossy: [1500, 1500, 2000] }))
    assert.deepEqual(found.map(v => v.status), ['not reproduced', 'not reproduced', 'reproduced', 'reproduced', 'reproduced', 'reproduced', 'not reproduced', 'not reproduced'], found.map(v => `${v.text}: ${v.status}`).join('\n'))
    // Without h2e (a run of --protocols h1,h2,h3): the same-server claims not measured, the references judged.
    const noEdge = verdicts(e, rows({ clean: [1000, 1000], '4G': [2000, 3000], '3G': [8000, 12000], lossy: [1500, 1500] }).filter(r => r.lane !== 'h2e'))
    assert.deepEqual(noEdge.map(v => v.status), [...Array(4).fill('not measured'), ...Array(4).fill('reproduced')])
  })
})
