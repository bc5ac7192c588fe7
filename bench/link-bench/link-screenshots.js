'use strict'

// The README's picture of what the packet-level link changes: the same batch
// (30 × 100 KB, 10 ms server delay, lanes h1 and h2n, one repeat) measured
//   1. under DevTools' "Regular 3G": the lanes on loopback (harness/start-lanes.js),
//      CDP Network.emulateNetworkConditions with link/devtools-presets.js's numbers,
//      which hold each response for 100 ms and share one 750 kbit/s pipe;
//   2. through the packet-level link's "Regular 3G" (harness/link-session.js):
//      Chromium inside the link's namespace, every packet delayed and rate
//      limited, no CDP throttling.
// The DevTools run happens in a network namespace with only a loopback device
// (see isolatedDevtoolsRun). After each run it takes the page's Network panel, lane cards, comparison
// line and waterfalls; both side by side in docs/link-vs-devtools.png when
// ImageMagick's convert works, else docs/waterfall-devtools-regular-3g.png and
// docs/waterfall-link-regular-3g.png. Prints the medians of both runs.
//
//   node bin/h2bench-link-screenshots.js [--out DIR]   (needs root or a user namespace, Linux, Chromium)

const { execFileSync, spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { launchBrowser, findChrome, INSTALL_HINT } = require('../../harness/chromium')
const { startLanes } = require('../../harness/start-lanes')
const { presetByName, toCdp, describePreset } = require('../../link/devtools-presets')
const { startAll } = require('../../server/start')
const { parseConfig } = require('../../server/config')
const { generateCertificate, spkiHash } = require('../../server/certs')
const { startLinkSession } = require('../../harness/link-session')
const { unavailableReason } = require('../../link/namespace')
const { UserError, UsageError } = require('../../common/errors')

const PRESET = 'Regular 3G'
const WORKLOAD = { requests: 30, size: '100kb', delay: 10, repeats: 1, lanes: ['h1', 'h2n'] }
const VIEWPORT = { width: 1100, height: 900 }
const FILES = {
  devtools: 'waterfall-devtools-regular-3g.png',
  link: 'waterfall-link-regular-3g.png',
  both: 'link-vs-devtools.png'
}

const USAGE = 'node bin/h2bench-link-screenshots.js [--out DIR]'

function parseArgs (argv) {
  const opts = { out: path.join(__dirname, '..', '..', 'docs'), devtoolsChild: null }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out' && argv[i + 1]) opts.out = path.resolve(argv[++i])
    else if (argv[i] === '--devtools-child' && argv[i + 1]) opts.devtoolsChild = path.resolve(argv[++i])
    else if (argv[i] === '--help' || argv[i] === '-h') {
      opts.help = true
    } else {
      throw new UsageError(`unknown argument "${argv[i]}"; usage: ${USAGE}`)
    }
  }
  return opts
}

// Opens the page, waits until every lane answered its probe (and the Network
// panel knows the link).
async function openPage (browser, url) {
  const page = await browser.context.newPage()
  await page.setViewport(VIEWPORT)
  const errors = []
  const consoleErrors = []
  page.on('pageerror', e => errors.push(e.message))
  page.on('console', m => { if (m.type() === 'error') consoleErrors.push(m.text()) })
  await page.goto(url)
  await page.waitForFunction(() => Array.from(document.querySelectorAll('.card .state')).every(s => s.textContent === 'ready') &&
    document.getElementById('link-now').dataset.mode, { timeout: 30000 })
  return { page, errors, consoleErrors }
}

// The run (again, up to ATTEMPTS times, while requests fail: a Chromium
// outside the link fails requests in flight with net::ERR_NETWORK_CHANGED
// whenever a network device comes or goes on the machine, as every link's
// TUN device does), then the part of the page that shows it, under a title
// saying which network it is.
const ATTEMPTS = 3

async function runAndShoot ({ page, consoleErrors }, { title, subtitle, file }) {
  let result
  for (let attempt = 1; ; attempt++) {
    consoleErrors.splice(0)
    result = await page.evaluate(w => window.h2bench.run(w), WORKLOAD)
    const failed = result.lanes.filter(l => l.failures > 0 || l.samples.length === 0)
    if (result.state === 'done' && failed.length === 0) break
    const what = `run ${result.state}, ${failed.map(l => `${l.lane}: ${l.failures} failed requests`).join(', ')}` +
      ` (${[...new Set(consoleErrors)].join('; ') || 'no console error'})`
    if (attempt === ATTEMPTS) throw new Error(`${title}: ${what}, ${ATTEMPTS} times`)
    process.stdout.write(`  attempt ${attempt}: ${what}; again\n`)
  }
  const medians = Object.fromEntries(result.lanes.map(l => [l.lane, l.summary.median]))
  // Measured requests that set up a connection (the warm-up opened them all,
  // so each is a connection the server or the network closed meanwhile).
  const connecting = Object.fromEntries(result.lanes.map(l => [l.lane,
    l.batches.flatMap(b => b.requests).filter(r => r && r.timing && r.timing.connectEnd > r.timing.connectStart).length]))
  await page.evaluate(({ title, subtitle }) => {
    for (const sel of ['header.top', '#setup', '#trust', '#history', '#push', 'footer', '.card.excluded', '#comparison .chart']) {
      document.querySelectorAll(sel).forEach(el => { el.style.display = 'none' })
    }
    const head = document.createElement('section')
    head.className = 'panel'
    head.style.borderColor = '#2b6cb0'
    head.innerHTML = '<h2 style="margin:0 0 4px;font-size:1.35rem"></h2><p style="margin:0"></p>'
    head.firstChild.textContent = title
    head.lastChild.textContent = subtitle
    const main = document.querySelector('main')
    main.style.paddingTop = '16px'
    main.insertBefore(head, main.firstChild)
  }, { title, subtitle: `${subtitle} Medians: ${result.lanes.map(l => `${l.lane} ${(l.summary.median / 1000).toFixed(2)} s`).join(', ')}.` })
  const main = await page.waitForSelector('main')
  await main.screenshot({ path: file }) // the whole element, scrolled into view
  await main.dispose()
  return { result, medians, connecting }
}

async function devtoolsRun (file) {
  const { running, tls } = await startLanes(['h1', 'h2', 'h2n'])
  let browser = null
  try {
    browser = await launchBrowser({ spki: tls.spki, lanes: running.lanes })
    const opened = await openPage(browser, `${running.page.url}/`)
    const { page, errors } = opened
    const preset = presetByName(PRESET)
    const cdp = await page.createCDPSession()
    await cdp.send('Network.enable')
    await cdp.send('Network.emulateNetworkConditions', toCdp(preset))
    const shot = await runAndShoot(opened, {
      title: `DevTools throttling: “${PRESET}” (request-level)`,
      subtitle: `CDP Network.emulateNetworkConditions: ${describePreset(preset)}, lanes on loopback. ` +
        `${WORKLOAD.requests} × 100 KB, ${WORKLOAD.delay} ms server delay, 1 repeat.`,
      file
    })
    if (errors.length) throw new Error(`the page failed: ${errors.join('; ')}`)
    return shot
  } finally {
    if (browser) await browser.close()
    await running.close()
  }
}

// The DevTools run in a network namespace of its own, with only a loopback
// device: lanes and Chromium on its 127.0.0.1, and no other device whose
// coming and going (any link's TUN devices, on a busy machine) makes Chromium
// fail the requests in flight with net::ERR_NETWORK_CHANGED. This script again,
// with --devtools-child; its last stdout line is the JSON of the shot.
function isolatedDevtoolsRun (file, entry) {
  const args = ['--net', '--', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, entry, '--devtools-child', file]
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', d => { out += d })
    child.once('error', reject)
    child.once('exit', code => {
      const lines = out.trimEnd().split('\n')
      const last = code === 0 ? lines.pop() : ''
      if (lines.length) process.stdout.write(lines.join('\n') + '\n')
      if (code !== 0) return reject(new Error(`the DevTools run (in its own network namespace) exited with code ${code}`))
      try {
        resolve(JSON.parse(last))
      } catch {
        reject(new Error(`the DevTools run printed no result: ${last}`))
      }
    })
  })
}

async function linkRun (file) {
  const pair = await generateCertificate()
  const tls = { ...pair, spki: spkiHash(pair.cert) }
  const session = await startLinkSession({ spec: PRESET, config: parseConfig([], {}), tls, startAll })
  let browser = null
  try {
    browser = await launchBrowser({ spki: tls.spki, link: session.opened, lanes: session.running.lanes })
    const opened = await openPage(browser, `${session.running.page.url}/`)
    const { errors } = opened
    const shot = await runAndShoot(opened, {
      title: `Packet-level link: “${PRESET}” (every packet)`,
      subtitle: `${session.control.current().description.replace(/^[^:]*: /, '')}; Chromium in the link's namespace, no DevTools throttling. ` +
        `${WORKLOAD.requests} × 100 KB, ${WORKLOAD.delay} ms server delay, 1 repeat.`,
      file
    })
    if (errors.length) throw new Error(`the page failed: ${errors.join('; ')}`)
    return { ...shot, link: session.control.current() }
  } finally {
    if (browser) await browser.close()
    await session.close()
  }
}

// ImageMagick's convert, if it is the real one and works: a and b side by side.
function sideBySide (a, b, out) {
  try {
    execFileSync('convert', [a, b, '-background', '#f4f6f9', '-gravity', 'north', '+append', '+repage', out], { stdio: ['ignore', 'ignore', 'pipe'] })
    return fs.statSync(out).size > 0 ? null : 'convert wrote nothing'
  } catch (err) {
    return String(err.stderr || err.message).trim().split('\n')[0]
  }
}

// `entry`: the script that was started (bin/h2bench-link-screenshots.js), started again for the DevTools run.
async function main (argv, { entry }) {
  const opts = parseArgs(argv)
  if (opts.help) {
    process.stdout.write(`usage: ${USAGE}\n`)
    return 0
  }
  if (opts.devtoolsChild) {
    const { medians, connecting } = await devtoolsRun(opts.devtoolsChild)
    process.stdout.write(JSON.stringify({ medians, connecting }) + '\n')
    return
  }
  const why = unavailableReason() || (findChrome() ? null : `no Chrome or Chromium found: ${INSTALL_HINT}`)
  if (why) throw new UserError(`cannot make the screenshots: ${why}`, { status: 503 })
  fs.mkdirSync(opts.out, { recursive: true })
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-shots-'))
  try {
    const shots = {}
    for (const [name, run] of [['devtools', isolatedDevtoolsRun], ['link', linkRun]]) {
      process.stdout.write(`${name}: ${WORKLOAD.requests} × ${WORKLOAD.size}, delay ${WORKLOAD.delay} ms, lanes ${WORKLOAD.lanes.join(', ')} under ${PRESET}…\n`)
      shots[name] = await run(path.join(tmp, FILES[name]), entry)
    }
    process.stdout.write(`\nmedians (ms), ${WORKLOAD.requests} × 100 KB, ${PRESET}:\n`)
    process.stdout.write(`  ${'lane'.padEnd(5)} ${'DevTools'.padStart(9)} ${'link'.padStart(9)}   requests that opened a connection (DevTools, link)\n`)
    for (const lane of WORKLOAD.lanes) {
      process.stdout.write(`  ${lane.padEnd(5)} ${shots.devtools.medians[lane].toFixed(1).padStart(9)} ${shots.link.medians[lane].toFixed(1).padStart(9)}   ` +
        `${shots.devtools.connecting[lane]}, ${shots.link.connecting[lane]}\n`)
    }
    process.stdout.write(`  link: ${shots.link.link.description}\n\n`)
    const both = path.join(opts.out, FILES.both)
    const failed = sideBySide(path.join(tmp, FILES.devtools), path.join(tmp, FILES.link), path.join(tmp, FILES.both))
    if (!failed) {
      fs.copyFileSync(path.join(tmp, FILES.both), both)
      process.stdout.write(`wrote ${path.relative(process.cwd(), both)}\n`)
    } else {
      for (const name of ['devtools', 'link']) {
        fs.copyFileSync(path.join(tmp, FILES[name]), path.join(opts.out, FILES[name]))
        process.stdout.write(`wrote ${path.relative(process.cwd(), path.join(opts.out, FILES[name]))}\n`)
      }
      process.stdout.write(`(not combined: ${failed}; apt-get install imagemagick for one side-by-side file)\n`)
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

module.exports = { main, WORKLOAD, PRESET }
