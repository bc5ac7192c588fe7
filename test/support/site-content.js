'use strict'

const fs = require('node:fs')
const path = require('node:path')

// The static site of test/support/static-site.js: one page, a stylesheet, a
// script and three images, generated here byte for byte the same on every run
// and every Node version (fixed seeds, no compressor), so a test knows what a
// browser should load (SITE) and can compare every byte served (siteBody).

// A PRNG with a fixed seed, so the text and pixels never change.
function prng (seed) {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32 (buf) {
  let c = 0xffffffff
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

// zlib's stream of stored (uncompressed) deflate blocks: unlike a real
// compressor's output, its bytes cannot change with the zlib Node bundles,
// so the images' sizes are the same on every Node version.
function storedZlib (raw) {
  const parts = [Buffer.from([0x78, 0x01])]
  for (let at = 0; at < raw.length || at === 0; at += 0xffff) {
    const block = raw.subarray(at, at + 0xffff)
    const head = Buffer.alloc(5)
    head[0] = at + 0xffff >= raw.length ? 1 : 0
    head.writeUInt16LE(block.length, 1)
    head.writeUInt16LE(~block.length & 0xffff, 3)
    parts.push(head, block)
  }
  let a = 1
  let b = 0
  for (const x of raw) { a = (a + x) % 65521; b = (b + a) % 65521 }
  const adler = Buffer.alloc(4)
  adler.writeUInt32BE(((b << 16) | a) >>> 0)
  return Buffer.concat([...parts, adler])
}

function pngChunk (type, data) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}

// A PNG of width × height; row(y) gives a row's packed pixel bytes.
function png (width, height, { bitDepth, colorType, palette = null }, row) {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = bitDepth
  ihdr[9] = colorType
  const rows = []
  for (let y = 0; y < height; y++) rows.push(Buffer.from([0]), row(y)) // filter type 0 on every row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...(palette ? [pngChunk('PLTE', Buffer.from(palette.flat()))] : []),
    pngChunk('IDAT', storedZlib(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0))
  ])
}

// The Largest Contentful Paint element: 480 × 320 px at its natural size
// (Chromium counts an upscaled image at its intrinsic area, so it must be
// big itself), 4 colours at 2 bits a pixel: about 38 KB.
function heroPng () {
  const W = 480
  const H = 320
  const palette = [[0x1d, 0x35, 0x57], [0x45, 0x7b, 0x9d], [0xa8, 0xda, 0xdc], [0xf1, 0xfa, 0xee]]
  return png(W, H, { bitDepth: 2, colorType: 3, palette }, y => {
    const bytes = Buffer.alloc(W / 4)
    for (let x = 0; x < W; x++) {
      const d = Math.hypot(x - 330, y - 120)
      const colour = d < 70 ? 3 : (d < 78 ? 2 : ((x + 2 * y) >> 5) & 1 ? 1 : (y > 250 ? 2 : 0))
      bytes[x >> 2] |= colour << (6 - 2 * (x & 3))
    }
    return bytes
  })
}

// A smaller photo-like picture: 160 × 120 RGB, gradients and noise, about 58 KB.
function photoPng () {
  const W = 160
  const H = 120
  const rnd = prng(20260)
  return png(W, H, { bitDepth: 8, colorType: 2 }, y => {
    const bytes = Buffer.alloc(W * 3)
    for (let x = 0; x < W; x++) {
      const n = Math.floor(rnd() * 24)
      bytes[3 * x] = Math.min(255, 90 + x + n)
      bytes[3 * x + 1] = Math.min(255, 60 + y + n)
      bytes[3 * x + 2] = Math.min(255, 180 - (x >> 1) + n)
    }
    return bytes
  })
}

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">
  <title>Static site</title>
  <rect x="4" y="4" width="88" height="88" rx="14" fill="#1d3557"/>
  <circle cx="48" cy="40" r="20" fill="#a8dadc"/>
  <path d="M18 78 L38 54 L52 68 L62 58 L78 78 Z" fill="#f1faee"/>
</svg>
`

const WORDS = ('request response stream header frame packet window latency bandwidth server browser page image ' +
  'script style connection handshake certificate protocol queue loss round trip priority cache origin resource ' +
  'transfer paint layout network client byte second flow control congestion').split(' ')

// Deterministic prose: n sentences of 8-16 words.
function prose (rnd, n) {
  const out = []
  for (let i = 0; i < n; i++) {
    const len = 8 + Math.floor(rnd() * 9)
    const words = Array.from({ length: len }, () => WORDS[Math.floor(rnd() * WORDS.length)])
    out.push(words.join(' ').replace(/^./, c => c.toUpperCase()) + '.')
  }
  return out.join(' ')
}

function indexHtml () {
  const rnd = prng(7)
  const sections = Array.from({ length: 6 }, (_, i) => `    <section>
      <h2>Section ${i + 1}</h2>
      <p>${prose(rnd, 4)}</p>
      <p>${prose(rnd, 3)}</p>
    </section>`).join('\n')
  // The empty data: icon keeps a browser from asking for /favicon.ico, so
  // what it requests is exactly SITE.paths.
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>A plain static site</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/style.css">
  <script src="/app.js" defer></script>
</head>
<body>
  <header><img class="logo" src="/logo.svg" width="96" height="96" alt="logo"><h1>A plain static site</h1></header>
  <main>
    <img class="hero" src="/hero.png" width="480" height="320" alt="a circle over stripes">
    <p class="lead">One page, one stylesheet, one script and three images, all from the same origin, served by an ordinary web server.</p>
    <img class="photo" src="/photo.png" width="160" height="120" alt="a gradient">
    <p id="status">The script has not run.</p>
${sections}
  </main>
  <footer><p>Generated by h2bench's test fixture; every byte is the same on every run.</p></footer>
</body>
</html>
`
}

function styleCss () {
  const rnd = prng(11)
  const rules = Array.from({ length: 24 }, (_, i) => `section:nth-of-type(${i + 1}) h2 { color: #${Math.floor(rnd() * 0x1000000).toString(16).padStart(6, '0')}; letter-spacing: ${(i % 3) / 10}px; }`)
  return `/* A plain site's stylesheet. */
html { font: 16px/1.5 system-ui, sans-serif; color: #1d3557; background: #f1faee; }
body { margin: 0 auto; max-width: 44em; padding: 1em; }
header { display: flex; align-items: center; gap: 1em; }
h1 { font-size: 1.6em; margin: 0; }
img.hero { display: block; max-width: 100%; height: auto; margin: 1em 0; }
img.photo { float: right; margin: 0 0 1em 1em; }
p { max-width: 40em; }
section { clear: both; border-top: 1px solid #a8dadc; }
footer { font-size: 0.8em; color: #457b9d; }
${rules.join('\n')}
`
}

function appJs () {
  const rnd = prng(13)
  const table = Array.from({ length: 64 }, () => Math.floor(rnd() * 1e6))
  return `'use strict'
// A plain site's script: it runs once the page is parsed, and loads nothing.
;(function () {
  var table = ${JSON.stringify(table)}
  var sum = 0
  for (var i = 0; i < table.length; i++) sum = (sum + table[i]) % 1000003
  var status = document.getElementById('status')
  var images = document.images.length
  status.textContent = 'The script ran: ' + images + ' images on the page, checksum ' + sum + '.'
  document.documentElement.setAttribute('data-site-ready', String(sum))
})()
`
}

// URL path → [file name, content]: the page is '/' (index.html, which both
// servers also answer by name), as a browser asks for it.
function buildSite () {
  return {
    '/': ['index.html', Buffer.from(indexHtml())],
    '/style.css': ['style.css', Buffer.from(styleCss())],
    '/app.js': ['app.js', Buffer.from(appJs())],
    '/logo.svg': ['logo.svg', Buffer.from(LOGO_SVG)],
    '/hero.png': ['hero.png', heroPng()],
    '/photo.png': ['photo.png', photoPng()]
  }
}

const CONTENT = buildSite()
// What a browser loads for the page: every path once, nothing else.
const SITE = Object.freeze({
  paths: Object.freeze(Object.keys(CONTENT)),
  files: Object.freeze(Object.fromEntries(Object.entries(CONTENT).map(([p, [name]]) => [p, name]))),
  bytes: Object.freeze(Object.fromEntries(Object.entries(CONTENT).map(([p, [, body]]) => [p, body.length]))),
  totalBytes: Object.values(CONTENT).reduce((sum, [, body]) => sum + body.length, 0),
  requests: Object.keys(CONTENT).length,
  lcp: '/hero.png'
})

// The exact bytes served at `urlPath` (one of SITE.paths).
function siteBody (urlPath) {
  if (!CONTENT[urlPath]) throw new Error(`the static site has no ${urlPath}`)
  return CONTENT[urlPath][1]
}

// Writes the site's files into `root` (an existing folder).
function writeSite (root) {
  for (const [name, body] of Object.values(CONTENT)) fs.writeFileSync(path.join(root, name), body)
}

// png(width, height, { bitDepth, colorType, palette }, row) and prng(seed): for a fixture's pictures of its own
// (test/support/third-party-site.js), the same bytes on every Node version.
module.exports = { SITE, siteBody, writeSite, png, prng }
