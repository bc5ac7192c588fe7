'use strict'

// npm run bench -- record: its command line (bench/record/record-args.js), how bin/h2bench-run.js hands
// it `record` and its exit codes by common/cli.js (2 for what was typed, before any browser starts),
// and the summary printed after a recording (bench/record/summary.js), on a constructed HAR.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { parseRecordArgs, HELP } = require('../../bench/record/record-args')
const { parseRunArgs } = require('../../bench/runner/run-args')
const { summaryLines } = require('../../bench/record/summary')
const { browserOf } = require('../../bench/record/record')
const { UsageError } = require('../../common/errors')

const RUN = path.join(__dirname, '..', '..', 'bin', 'h2bench-run.js')
const run = args => spawnSync(process.execPath, [RUN, ...args], { encoding: 'utf8', timeout: 30000 })

describe('npm run bench -- record: command line and summary', () => {
  let dir
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-record-args-')) })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const usage = (argv, re) => assert.throws(() => parseRecordArgs(argv), err => err instanceof UsageError && err.status === 400 && re.test(err.message), re)

  it('--url (repeatable, once each), --out as an absolute path, defaults: chromium, 60 s, no CA, server time the least', () => {
    const out = path.join(dir, 'site.har')
    assert.deepEqual(parseRecordArgs(['--url', 'https://a.example/', '--url', 'https://b.example:8443/x?y=1', '--url', 'https://a.example/', '--out', out]), {
      help: false, urls: ['https://a.example/', 'https://b.example:8443/x?y=1'], out, browser: 'chromium', timeoutMs: 60000, ca: null, serverTime: 'least'
    })
    const rel = path.relative(process.cwd(), out)
    const opts = parseRecordArgs(['--url', 'https://a.example', '--out', rel, '--timeout', '2m', '--ca', 'ca.pem', '--browser', 'chromium'])
    assert.equal(opts.out, out)
    assert.equal(opts.timeoutMs, 120000)
    assert.equal(opts.ca, path.resolve('ca.pem'))
    assert.equal(parseRecordArgs(['--url', 'https://a.example', '--out', rel, '--server-time', 'page']).serverTime, 'page')
    assert.deepEqual(parseRecordArgs(['--help']), { help: true })
  })

  it('usage errors name the flag: no --url, a URL that is not https://, --out missing or in no writable folder, another browser', () => {
    const out = path.join(dir, 'x.har')
    usage(['--out', out], /give the page to record with --url https:\/\//)
    usage(['--url', 'http://a.example/', '--out', out], /--url http:\/\/a\.example\/: .*only over https:\/\/; got http:/)
    usage(['--url', 'a.example', '--out', out], /--url "a\.example" is not a URL/)
    usage(['--url', 'https://a.example/'], /give the HAR file to write with --out <file\.har>/)
    usage(['--url', 'https://a.example/', '--out', path.join(dir, 'no-such-folder', 'x.har')], /no-such-folder does not exist/)
    fs.writeFileSync(path.join(dir, 'a-file'), '')
    usage(['--url', 'https://a.example/', '--out', path.join(dir, 'a-file', 'x.har')], /a-file is not a folder/)
    usage(['--url', 'https://a.example/', '--out', dir], /is a folder; name the HAR file/)
    usage(['--url', 'https://a.example/', '--out', out, '--browser', 'firefox'], /--browser must be chromium .*got "firefox"/)
    usage(['--url', 'https://a.example/', '--out', out, '--timeout', 'soon'], /--timeout must be a time .*got "soon"/)
    usage(['--url', 'https://a.example/', '--out', out, '--server-time', 'alone'], /--server-time must be least or page; got "alone"/)
    usage(['--url', 'https://a.example/', '--out', out, '--repeats', '3'], /Unknown option '--repeats'; options are --url, --out, --browser, --timeout, --ca, --server-time, --help/)
    usage(['https://a.example/', '--out', out], /unexpected "https:\/\/a\.example\/"; name pages with --url/)
  })

  it('a folder not writable: said before anything starts (as a user other than root)', function () {
    if (process.getuid && process.getuid() === 0) {
      process.stdout.write('      (skipped: root may write any folder)\n')
      return this.skip()
    }
    const locked = path.join(dir, 'locked')
    fs.mkdirSync(locked, { mode: 0o555 })
    usage(['--url', 'https://a.example/', '--out', path.join(locked, 'x.har')], /locked is not writable/)
  })

  it('the command: `record` reaches its own parser and help; a usage error is one line and exit code 2', () => {
    const help = run(['record', '--help'])
    assert.equal(help.status, 0, help.stderr)
    assert.equal(help.stdout, HELP + '\n')
    const none = run(['record'])
    assert.equal(none.status, 2)
    assert.equal(none.stdout, '')
    assert.match(none.stderr, /^h2bench-run record: give the page to record with --url https:\/\/.*\n$/)
    const plain = run(['record', '--url', 'http://127.0.0.1:1/', '--out', path.join(dir, 'x.har')])
    assert.equal(plain.status, 2)
    assert.match(plain.stderr, /only over https:\/\//)
    const nowhere = run(['record', '--url', 'https://127.0.0.1:1/', '--out', path.join(dir, 'missing', 'x.har')])
    assert.equal(nowhere.status, 2)
    assert.match(nowhere.stderr, /missing does not exist/)
    assert.equal(fs.existsSync(path.join(dir, 'missing')), false)
  })

  it('the runner\'s own arguments are as before; its help names record', () => {
    assert.throws(() => parseRunArgs(['record', '--url', 'https://a.example/']), /unknown experiment "record"|--url is the site experiment's/)
    assert.deepEqual(parseRunArgs(['site', '--url', 'https://a.example/']).site.urls, ['https://a.example/'])
    const help = run(['--help'])
    assert.equal(help.status, 0)
    assert.match(help.stdout, /^Usage: npm run bench -- <experiment…\|all> \[options\]/)
    assert.match(help.stdout, /npm run bench -- record --url <https:\/\/…> --out <file\.har>/)
  })

  it('the browser\'s name and version from its --version line', () => {
    assert.deepEqual(browserOf('Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)'), { name: 'Chromium', version: '156.0.8078.108' })
    assert.deepEqual(browserOf('Google Chrome 150.0.7000.1 '), { name: 'Google Chrome', version: '150.0.7000.1' })
  })

  it('the summary: pages, entries, body bytes, each origin with address, protocol, names and round trip, shared certificates, entries without a body', () => {
    const entry = (url, { text, encoding, complete = true, status = 200, redirectURL = '' } = {}) => ({
      request: { method: 'GET', url },
      response: { status, redirectURL, content: { size: 0, mimeType: '', ...(text === undefined ? {} : { text }), ...(encoding ? { encoding } : {}) } },
      _h2bench: { origin: new URL(url).origin, serverTimeMs: 1, bodyComplete: complete }
    })
    const har = {
      log: {
        pages: [{ id: 'page_1' }],
        entries: [
          entry('https://a.example/', { text: 'h\u00e9' }), // 3 bytes
          entry('https://a.example/i.png', { text: Buffer.alloc(10).toString('base64'), encoding: 'base64' }),
          entry('https://a.example/old', { complete: false, status: 301, redirectURL: 'https://a.example/' }),
          entry('https://b.example:8443/x', { complete: false })
        ],
        _h2bench: {
          origins: [
            { origin: 'https://a.example', address: '192.0.2.1', certNames: ['a.example', 'b.example'], certId: 'ab'.repeat(32), rttMs: 2, rttFrom: 'browser', protocol: 'h2' },
            { origin: 'https://b.example:8443', address: '192.0.2.1', certNames: ['a.example', 'b.example'], certId: 'ab'.repeat(32), rttMs: 0.3, rttFrom: 'tcp-connect', protocol: 'h3' }
          ]
        }
      }
    }
    assert.deepEqual(summaryLines(har, 'site.har'), [
      'recorded site.har: 1 page, 4 entries, 13 body bytes, 2 origins',
      `  https://a.example  192.0.2.1  h2  certificate a.example, b.example [${'ab'.repeat(6)}]  round trip 2 ms`,
      `  https://b.example:8443  192.0.2.1  h3  certificate a.example, b.example [${'ab'.repeat(6)}]  round trip 0.3 ms (TCP connects from here)`,
      '  one certificate for https://a.example, https://b.example:8443',
      '2 entries without a (complete) body:',
      '  GET https://a.example/old (redirect 301)',
      '  GET https://b.example:8443/x (status 200)'
    ])
  })
})
