'use strict'

// harness/nss-trust.js's pure parts (what certutil is asked, what its failures say, where Chromium looks, how a
// CA is given) and site-trust's log line; the database made by a real certutil and read by both browsers:
// test/harness/slow/ca-trust.test.js.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const {
  trustCaInNssDb, certutilCommands, certutilFailure, caSource, caSubject, chromiumNssDir, NssTrustError, NSS_PACKAGE
} = require('../../harness/nss-trust')
const { trustLine } = require('../../harness/site-trust')
const { makePrivateCa } = require('../support/private-ca')

describe('harness/nss-trust.js: a CA in a throw-away NSS database', () => {
  let ca = null
  let dir = null
  before(async () => {
    ca = await makePrivateCa({ leaves: [['127.0.0.2'], ['a.test']], name: 'nss unit CA' })
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-nss-unit-'))
  })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('asks certutil for a new database with an empty password, then the CA trusted to issue TLS server certificates', () => {
    assert.deepEqual(certutilCommands('/tmp/x/db', '/tmp/ca.pem', 'the CA'), [
      ['-N', '-d', 'sql:/tmp/x/db', '--empty-password'],
      ['-A', '-n', 'the CA', '-t', 'C,,', '-i', '/tmp/ca.pem', '-d', 'sql:/tmp/x/db']
    ])
  })

  it('Chromium\'s database is $HOME/.pki/nssdb of the home it is given', () => {
    assert.equal(chromiumNssDir('/tmp/p/home'), '/tmp/p/home/.pki/nssdb')
  })

  it('no certutil: names the package (libnss3-tools) and its install command; a refusal: certutil\'s own last words', () => {
    const missing = certutilFailure(Object.assign(new Error('spawnSync certutil ENOENT'), { code: 'ENOENT' }), ['-N'], "Firefox's profile")
    assert.match(missing, /^no certutil, which puts the CA into Firefox's profile \(package libnss3-tools: apt-get install -y libnss3-tools\)$/)
    assert.equal(NSS_PACKAGE, 'libnss3-tools')
    const refused = certutilFailure(Object.assign(new Error('Command failed'), { stderr: Buffer.from('certutil: could not find certificate\ncertutil: bad database\n') }), ['-A', '-n', 'x'], 'db')
    assert.equal(refused, 'certutil -A -n x failed: certutil: could not find certificate certutil: bad database')
  })

  it('takes the CA as PEM text or a file\'s name; a missing file or one with no certificate is a clear error', () => {
    assert.deepEqual(caSource(ca.caPem), { pem: ca.caPem, file: null })
    const file = path.join(dir, 'ca.pem')
    fs.writeFileSync(file, ca.caPem)
    assert.deepEqual(caSource(file), { pem: ca.caPem, file })
    assert.throws(() => caSource(path.join(dir, 'absent.pem')), err => err instanceof NssTrustError && /absent\.pem: cannot read it \(ENOENT\)/.test(err.message))
    fs.writeFileSync(path.join(dir, 'empty.pem'), 'not a certificate\n')
    assert.throws(() => caSource(path.join(dir, 'empty.pem')), /empty\.pem: no PEM certificate in it/)
    assert.throws(() => caSource(null), /no CA given/)
  })

  it('the CA\'s subject in one line for the log; null for what does not parse', () => {
    assert.equal(caSubject(ca.caPem), 'CN=nss unit CA')
    assert.equal(caSubject('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'), null)
  })

  it('without certutil on the PATH: NssTrustError naming libnss3-tools, status 503', () => {
    const saved = process.env.PATH
    process.env.PATH = '/nonexistent'
    try {
      assert.throws(() => trustCaInNssDb(path.join(dir, 'db'), { ca: ca.caPem, forWhom: 'the test\'s database' }),
        err => err instanceof NssTrustError && err.status === 503 && err.code === 'H2B_NSS_TRUST' && /no certutil, which puts the CA into the test's database \(package libnss3-tools/.test(err.message))
    } finally {
      process.env.PATH = saved
    }
    // The PEM text was written beside the database for certutil -i.
    assert.equal(fs.readFileSync(path.join(dir, 'db', 'h2bench-ca.pem'), 'utf8'), ca.caPem)
  })

  it('site-trust\'s log line says which CA is trusted, from which file, for every origin, and which leaves were checked', () => {
    const line = trustLine('/etc/site/ca.pem', ca.caPem, [{ url: 'https://a.test:8443/', subject: 'a.test' }, { url: 'https://127.0.0.2/', subject: null }])
    assert.equal(line, 'trusting the CA CN=nss unit CA from /etc/site/ca.pem for every origin (the browser\'s throw-away NSS database); checked against it first: a.test:8443 (a.test), 127.0.0.2')
  })
})
