'use strict'

// harness/visual/: the visual metrics (speed-index.js) on constructed
// traces whose Speed Index is known by hand, and the filmstrip files
// (filmstrip.js). The screenshots are solid-colour JPEGs made with jpeg-js,
// the decoder speedline-core itself uses (taken from speedline-core's own
// dependencies, the copy it decodes with). Each block of 16 × 16 pixels is one
// colour, so every block decodes the same in every image and the histograms,
// and so the progress, come out exact.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { createRequire } = require('node:module')
const { visualMetrics } = require('../../harness/visual/speed-index')
const { writeFilmstrip, filmstripTable } = require('../../harness/visual/filmstrip')

const jpeg = createRequire(require.resolve('speedline-core'))('jpeg-js')

const W = 64
const H = 32
const WHITE = [255, 255, 255]
const RED = [200, 20, 20]

// A W × H JPEG: its left `paintedColumns` columns RED, the rest WHITE.
function image (paintedColumns, quality = 90) {
  const data = Buffer.alloc(W * H * 4)
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const [r, g, b] = x < paintedColumns ? RED : WHITE
      data.set([r, g, b, 255], (y * W + x) * 4)
    }
  }
  return jpeg.encode({ data, width: W, height: H }, quality).data
}

const T0 = 1e9 // µs on the trace's clock: the navigation's start
const at = ms => T0 + ms * 1000
const MAIN = 'FRAME-MAIN'
const URL = 'https://site.test/'

const navigationStart = (ms, { url = URL, frame = MAIN, main = true } = {}) => ({
  name: 'navigationStart',
  cat: 'blink.user_timing',
  ph: 'R',
  pid: 1,
  tid: 1,
  ts: at(ms),
  args: { frame, data: { documentLoaderURL: url, isLoadingMainFrame: main, isOutermostMainFrame: main } }
})
const screenshot = (ms, jpg) => ({
  name: 'Screenshot',
  cat: 'disabled-by-default-devtools.screenshot',
  ph: 'I',
  pid: 2,
  tid: 2,
  ts: at(ms),
  args: { snapshot: jpg.toString('base64') }
})
const metadata = { name: 'process_name', cat: '__metadata', ph: 'M', pid: 1, tid: 0, ts: 0, args: { name: 'Renderer' } }

const BLANK = image(0)
const HALF = image(W / 2)
const FULL = image(W)

// White until 500 ms, half the screen painted at 500 ms, all of it at 1000 ms.
function paintedTrace () {
  return [
    metadata,
    screenshot(-300, FULL), // before the navigation: the page before, never counted
    navigationStart(0),
    screenshot(100, BLANK),
    screenshot(500, HALF),
    screenshot(1000, FULL),
    screenshot(1200, FULL) // the same bytes again: no change
  ]
}

const noNaN = r => {
  for (const k of ['speedIndexMs', 'perceptualSpeedIndexMs', 'firstVisualChangeMs', 'visuallyCompleteMs', 'lastVisualChangeMs']) {
    assert.ok(r[k] === null || Number.isFinite(r[k]), `${k} is ${r[k]}`)
  }
}

describe('visual metrics (harness/visual/speed-index.js)', () => {
  it('a page white until 500 ms, half painted then, all at 1000 ms: Speed Index 750 ms', async () => {
    const r = await visualMetrics(paintedTrace())
    assert.equal(r.error, null)
    assert.deepEqual(r.timeOrigin, { ts: T0, source: 'navigationStart', url: URL })
    // speedline: SI = first visual change + Σ over later frames of (time since the frame before) × (1 − its progress)
    //   = 500 + (1000 − 500) × (1 − 0.5) = 500 + 250 = 750 ms
    assert.equal(r.speedIndexMs, 750)
    assert.equal(r.firstVisualChangeMs, 500)
    assert.equal(r.visuallyCompleteMs, 1000)
    assert.equal(r.lastVisualChangeMs, 1000)
    // perceptual SI (SSIM): not hand-computable, but bound by the same first and last change
    assert.ok(r.perceptualSpeedIndexMs >= 500 && r.perceptualSpeedIndexMs <= 1000, `perceptual SI ${r.perceptualSpeedIndexMs}`)
    // speedline's white frame at 0, then each distinct screenshot after the start; the repeat at 1200 ms is dropped
    assert.deepEqual(r.frames.map(f => [f.ms, f.progress, f.synthetic]), [[0, 0, true], [100, 0, false], [500, 50, false], [1000, 100, false]])
    assert.deepEqual(r.frames[2].jpeg, HALF)
    assert.deepEqual(r.frames[3].jpeg, FULL)
  })

  it('a filmstrip: the frame on screen at each step, up to the last visual change', async () => {
    const r = await visualMetrics(paintedTrace())
    const strip = r.filmstrip(250)
    assert.deepEqual(strip.map(s => [s.ms, s.frameMs, s.progress]), [[0, 0, 0], [250, 100, 0], [500, 500, 50], [750, 500, 50], [1000, 1000, 100]])
    assert.deepEqual(strip[3].jpeg, HALF)
    assert.equal(r.filmstrip().length, 11) // 0, 100 … 1000 ms
    assert.deepEqual(r.filmstrip(300).map(s => s.ms), [0, 300, 600, 900, 1200]) // the last step at or after 1000 ms
    assert.throws(() => r.filmstrip(0), /positive/)
  })

  it('a trace without screenshots: null numbers and why, never NaN', async () => {
    const r = await visualMetrics([metadata, navigationStart(0)])
    noNaN(r)
    assert.equal(r.speedIndexMs, null)
    assert.equal(r.lastVisualChangeMs, null)
    assert.match(r.error, /no screenshots in the trace/)
    assert.deepEqual(r.frames, [])
    assert.deepEqual(r.filmstrip(), [])
    // screenshots only before the navigation: none of this load's
    const before = await visualMetrics([navigationStart(0), screenshot(-50, FULL)])
    noNaN(before)
    assert.match(before.error, /no screenshot after the navigation's start \(1 before it\)/)
  })

  it('a blank page (white to the end): null numbers and why, the frames kept', async () => {
    const r = await visualMetrics([navigationStart(0), screenshot(100, BLANK), screenshot(400, image(0, 70))])
    noNaN(r)
    assert.equal(r.speedIndexMs, null)
    assert.match(r.error, /no visual change/)
    assert.equal(r.frames.length, 3)
    assert.deepEqual(r.filmstrip(200).map(s => s.frameMs), [0, 100, 400]) // steps 0, 200, 400: up to the last frame
  })

  it('the time origin: the main frame\'s last http(s) navigationStart; an iframe\'s, about:blank\'s, or a given one', async () => {
    const shots = [screenshot(500, HALF), screenshot(1000, FULL)]
    const trace = [
      navigationStart(-2000, { url: 'https://site.test/first' }),
      navigationStart(0),
      navigationStart(200, { url: 'https://ads.test/frame', frame: 'FRAME-IFRAME', main: false }),
      navigationStart(300, { url: '' }), // a new blank document's: no documentLoaderURL of interest
      ...shots
    ]
    assert.equal((await visualMetrics(trace)).timeOrigin.ts, T0)
    // pick a navigation by its URL
    const first = await visualMetrics(trace, { url: 'https://site.test/first' })
    assert.equal(first.timeOrigin.ts, at(-2000))
    assert.equal(first.firstVisualChangeMs, 2500)
    // TracingStartedInBrowser names the main frame: another frame's navigationStart is not the origin
    const started = { name: 'TracingStartedInBrowser', cat: 'disabled-by-default-devtools.timeline', ph: 'I', pid: 1, tid: 1, ts: at(-3000), args: { data: { frames: [{ frame: 'FRAME-OTHER', url: 'about:blank' }] } } }
    const other = await visualMetrics([started, ...trace])
    assert.match(other.error, /no navigationStart of the main frame/)
    noNaN(other)
    // an origin given in µs
    const given = await visualMetrics(shots, { timeOrigin: at(250) })
    assert.deepEqual(given.timeOrigin, { ts: at(250), source: 'given', url: null })
    assert.equal(given.firstVisualChangeMs, 250)
    // none at all
    const none = await visualMetrics(shots)
    assert.match(none.error, /no navigationStart/)
    noNaN(none)
  })

  it('takes { traceEvents } as well as the array, and refuses anything else', async () => {
    assert.equal((await visualMetrics({ traceEvents: paintedTrace() })).speedIndexMs, 750)
    await assert.rejects(visualMetrics('trace.json'), /trace events/)
  })
})

describe('filmstrip files (harness/visual/filmstrip.js)', () => {
  let dir
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-filmstrip-test-')) })
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('one JPEG per step and a Markdown and an HTML row naming them with their times', async () => {
    const strip = (await visualMetrics(paintedTrace())).filmstrip(500)
    const out = writeFilmstrip(path.join(dir, 'h2'), strip, { label: 'HTTP/2 | spdy' })
    assert.deepEqual(out.files.map(f => path.basename(f)), ['000_0ms.jpg', '001_500ms.jpg', '002_1000ms.jpg'])
    assert.deepEqual(fs.readFileSync(out.files[1]), HALF)
    assert.deepEqual(fs.readFileSync(out.files[2]), FULL)
    const md = fs.readFileSync(out.markdownFile, 'utf8')
    assert.equal(md, [
      '|  | 0.0 s | 0.5 s | 1.0 s |',
      '| --- | --- | --- | --- |',
      '| HTTP/2 \\| spdy | ![0.0 s · 0 %](000_0ms.jpg) | ![0.5 s · 50 %](001_500ms.jpg) | ![1.0 s · 100 %](002_1000ms.jpg) |',
      ''
    ].join('\n'))
    const html = fs.readFileSync(out.htmlFile, 'utf8')
    assert.match(html, /HTTP\/2 \| spdy/)
    assert.equal(html.match(/<img src="[^"]+"/g).join(' '), '<img src="000_0ms.jpg" <img src="001_500ms.jpg" <img src="002_1000ms.jpg"')
    assert.match(html, /<figcaption>0\.5 s · 50 %<\/figcaption>/)
  })

  it('a table of rows (one per protocol), the images named from where the report sits', async () => {
    const r = await visualMetrics(paintedTrace())
    const h1 = writeFilmstrip(path.join(dir, 'strips', 'h1'), r.filmstrip(500), { label: 'HTTP/1.1' })
    const h3 = writeFilmstrip(path.join(dir, 'strips', 'h3'), r.filmstrip(1000), { label: 'HTTP/3 <edge>' })
    const md = filmstripTable([h1.row, h3.row], { baseDir: dir })
    const lines = md.trim().split('\n')
    assert.equal(lines[0], '|  | 0.0 s | 0.5 s | 1.0 s |')
    assert.match(lines[2], /^\| HTTP\/1\.1 \| !\[0\.0 s · 0 %\]\(strips\/h1\/000_0ms\.jpg\) \|/)
    assert.match(lines[3], /^\| HTTP\/3 \\<edge\\> \| !\[0\.0 s · 0 %\]\(strips\/h3\/000_0ms\.jpg\) \| !\[1\.0 s · 100 %\]\(strips\/h3\/001_1000ms\.jpg\) \| {2}\|$/)
    const html = filmstripTable([h1.row, h3.row], { format: 'html', baseDir: dir })
    assert.match(html, /HTTP\/3 &lt;edge&gt;/)
    assert.match(html, /src="strips\/h3\/001_1000ms\.jpg"/)
    assert.throws(() => filmstripTable([], { format: 'pdf' }), /markdown or html/)
  })
})
