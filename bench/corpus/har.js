'use strict'

// A generated page's plan (./page.js) made into the HAR h2bench's recorder writes (harness/har/recording.js, read
// by server/replay/archive.js): every body present and of its planned size, the document referencing every
// resource so a browser fetches them all before onload (stylesheets in <head>; web fonts by @font-face in the
// first stylesheet, each used by a line of text; JSON preloaded in <head> and fetch()ed; images, frames and
// scripts in <body>; the favicon a data: URL, so the browser asks nothing the page does not name), CSS and
// JavaScript padded with a comment, images valid PNG or JPEG (./images.js), each entry's _h2bench (origin,
// serverTimeMs, bodyComplete) and the log's _h2bench (every origin's address, certificate names and id, rttMs 0:
// the link gives the path). Deterministic: the same plan, the same bytes.
const { png, jpeg } = require('./images')

const RECORDED_AT = Date.parse('2026-01-01T00:00:00.000Z')
const FILLER = 'corpus padding, the size the distribution drew. '
const MIME = {
  document: 'text/html; charset=utf-8',
  frame: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  png: 'image/png',
  jpeg: 'image/jpeg',
  font: 'font/woff2',
  json: 'application/json'
}

// n bytes of ASCII filler (no "*/", no "--", no "<"), as a Buffer.
const filler = n => Buffer.from(FILLER.repeat(Math.ceil(n / FILLER.length) + 1).slice(0, n), 'latin1')

// `head` and `tail` around a comment of filler opening with `open` and closing with `close`, of exactly `size`
// bytes when it fits; else the text without filler, longer than `size` (→ its own length).
function padded (head, tail, size, open, close) {
  const bare = Buffer.byteLength(head) + Buffer.byteLength(tail) + open.length + close.length
  return Buffer.concat([Buffer.from(head), Buffer.from(open), filler(Math.max(0, size - bare)), Buffer.from(close), Buffer.from(tail)])
}

const attr = url => url.replace(/&/g, '&amp;').replace(/"/g, '&quot;')

// The body of each resource and of the document → Map url → Buffer.
function bodiesOf (plan) {
  const bodies = new Map()
  const fonts = plan.resources.filter(r => r.kind === 'font')
  const fontFamily = i => `corpus-font-${i + 1}`
  const firstCss = plan.resources.find(r => r.kind === 'css')
  for (const r of plan.resources) {
    if (r.kind === 'css') {
      const rules = r === firstCss
        ? fonts.map((f, i) => `@font-face{font-family:"${fontFamily(i)}";src:url("${f.url}") format("woff2");font-display:swap}\n.${fontFamily(i)}{font-family:"${fontFamily(i)}",sans-serif}\n`).join('')
        : ''
      bodies.set(r.url, padded(`${rules}body{margin:0}\n`, '\n', r.size, '/* ', ' */'))
    } else if (r.kind === 'js') {
      bodies.set(r.url, padded('"use strict";\n', '\n', r.size, '/* ', ' */'))
    } else if (r.kind === 'png') {
      bodies.set(r.url, png(r.size, filler))
    } else if (r.kind === 'jpeg') {
      bodies.set(r.url, jpeg(r.size, filler))
    } else if (r.kind === 'font') {
      bodies.set(r.url, Buffer.concat([Buffer.from('wOF2'), filler(r.size - 4)])) // fetched and counted; not a font the browser can use
    } else if (r.kind === 'json') {
      const head = '{"corpus":"'
      bodies.set(r.url, Buffer.concat([Buffer.from(head), filler(Math.max(0, r.size - head.length - 2)), Buffer.from('"}')]))
    } else if (r.kind === 'frame') {
      bodies.set(r.url, padded('<!doctype html><meta charset="utf-8"><title>frame</title><p>a frame</p>\n', '\n', r.size, '<!-- ', ' -->'))
    }
  }
  const of = kind => plan.resources.filter(r => r.kind === kind)
  const head = [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<title>corpus page ${plan.index + 1} (seed ${plan.seed}): ${plan.requests} requests, ${plan.bytes} bytes</title>`,
    '<link rel="icon" href="data:,">',
    ...of('css').map(r => `<link rel="stylesheet" href="${attr(r.url)}">`),
    ...of('json').map(r => `<link rel="preload" as="fetch" crossorigin="anonymous" href="${attr(r.url)}">`),
    '</head><body>',
    `<h1>Corpus page ${plan.index + 1}</h1>`,
    ...fonts.map((f, i) => `<p class="${fontFamily(i)}">Text in web font ${i + 1}</p>`),
    ...[...of('png'), ...of('jpeg')].map(r => `<img src="${attr(r.url)}" width="1" height="1" alt="">`),
    ...of('frame').map(r => `<iframe src="${attr(r.url)}" width="1" height="1" title="frame"></iframe>`),
    ...of('js').map(r => `<script src="${attr(r.url)}"></script>`),
    of('json').length ? `<script>for (const u of ${JSON.stringify(of('json').map(r => r.url)).replace(/</g, '\\u003c')}) fetch(u).then(r => r.text()).catch(() => {})</script>` : ''
  ].join('\n')
  bodies.set(plan.url, padded(head, '\n</body></html>\n', plan.document.size, '<!-- ', ' -->'))
  return bodies
}

const header = (name, value) => ({ name, value })

// The response headers of one resource (a third party's with CORS, as fonts and fetch() need across origins).
function headersOf (kind, thirdParty, length) {
  const list = [header('content-type', MIME[kind]), header('content-length', String(length))]
  if (kind !== 'document' && kind !== 'json') list.push(header('cache-control', 'public, max-age=86400'))
  if (kind === 'json') list.push(header('cache-control', 'no-store'))
  if (thirdParty || kind === 'font' || kind === 'json') list.push(header('access-control-allow-origin', '*'))
  return list
}

// A plan → the HAR object (HAR 1.2 with h2bench's fields). Entries in request order, the document first.
function harOf (plan) {
  const bodies = bodiesOf(plan)
  const items = [{ kind: 'document', url: plan.url, serverTimeMs: plan.document.serverTimeMs, thirdParty: false }, ...plan.resources]
  const afterDocument = plan.document.serverTimeMs + 1
  const entries = items.map((r, i) => {
    const body = bodies.get(r.url)
    const text = /^(image|font)\//.test(MIME[r.kind]) ? body.toString('base64') : body.toString('latin1')
    const content = { size: body.length, mimeType: MIME[r.kind], text }
    if (/^(image|font)\//.test(MIME[r.kind])) content.encoding = 'base64'
    const origin = new URL(r.url).origin
    return {
      pageref: 'page_1',
      startedDateTime: new Date(RECORDED_AT + (i === 0 ? 0 : afterDocument + i)).toISOString(),
      time: r.serverTimeMs,
      request: { method: 'GET', url: r.url, httpVersion: 'h2', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'h2',
        headers: headersOf(r.kind, r.thirdParty, body.length),
        cookies: [],
        content,
        redirectURL: '',
        headersSize: -1,
        bodySize: body.length
      },
      cache: {},
      timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: r.serverTimeMs, receive: 0 },
      serverIPAddress: plan.origins.find(o => o.origin === origin).address,
      _h2bench: { origin, serverTimeMs: r.serverTimeMs, bodyComplete: true }
    }
  })
  const recordedAt = new Date(RECORDED_AT).toISOString()
  return {
    log: {
      version: '1.2',
      creator: { name: 'h2bench corpus', version: '1' },
      pages: [{ startedDateTime: recordedAt, id: 'page_1', title: plan.url, pageTimings: {} }],
      entries,
      _h2bench: {
        recorder: 'h2bench corpus',
        version: 1,
        recordedAt,
        browser: null,
        origins: plan.origins.map(o => ({
          origin: o.origin, host: o.host, port: 443, address: o.address, certNames: o.certNames, certId: o.certId, rttMs: 0, rttFrom: 'corpus', protocol: 'h2'
        })),
        corpus: {
          seed: plan.seed,
          index: plan.index,
          drawn: { requests: plan.requests, bytes: plan.bytes, ...plan.drawn },
          thirdParty: plan.thirdParty
        }
      }
    }
  }
}

module.exports = { harOf, bodiesOf, RECORDED_AT }
