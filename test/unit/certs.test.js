'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const crypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const { loadOrCreateCertificate, CertError } = require('../../server/certs')

describe('certificates', function () {
  this.timeout(30000)
  let dir
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-certs-')) })
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('creates a SHA-256, RSA 2048 certificate for localhost, 127.0.0.1 and ::1, key mode 0600', async () => {
    const made = await loadOrCreateCertificate({ dir })
    assert.equal(made.created, true)
    const x509 = new crypto.X509Certificate(fs.readFileSync(path.join(dir, 'cert.pem')))
    assert.equal(x509.subjectAltName, 'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1')
    assert.equal(x509.publicKey.asymmetricKeyDetails.modulusLength, 2048)
    assert.ok(x509.checkHost('localhost'))
    assert.ok(x509.checkIP('127.0.0.1'))
    const text = execFileSync('openssl', ['x509', '-noout', '-text'], { input: made.cert }).toString()
    assert.match(text, /Signature Algorithm: sha256WithRSAEncryption/)
    assert.equal(fs.statSync(path.join(dir, 'key.pem')).mode & 0o777, 0o600)
  })

  it('reuses the certificate afterwards, with the same SPKI hash as openssl computes', async () => {
    const first = await loadOrCreateCertificate({ dir })
    const again = await loadOrCreateCertificate({ dir })
    assert.equal(again.created, false)
    assert.equal(again.cert, first.cert)
    const der = execFileSync('openssl', ['pkey', '-pubin', '-outform', 'der'],
      { input: execFileSync('openssl', ['x509', '-pubkey', '-noout'], { input: first.cert }) })
    assert.equal(first.spki, crypto.createHash('sha256').update(der).digest('base64'))
  })

  it('regenerates on request, the new key 0600 even where an old key file was readable', async () => {
    const first = await loadOrCreateCertificate({ dir })
    fs.chmodSync(path.join(dir, 'key.pem'), 0o644)
    const fresh = await loadOrCreateCertificate({ dir, regenerate: true })
    assert.equal(fresh.created, true)
    assert.notEqual(fresh.spki, first.spki)
    assert.equal(fs.statSync(path.join(dir, 'key.pem')).mode & 0o777, 0o600)
    assert.deepEqual(fs.readdirSync(dir).sort(), ['cert.pem', 'key.pem'])
  })

  it('names a folder it cannot write and the fix', async () => {
    const file = path.join(dir, 'a-file')
    fs.writeFileSync(file, '')
    await assert.rejects(loadOrCreateCertificate({ dir: path.join(file, 'certs') }),
      err => err instanceof CertError && err.message.includes(path.join(file, 'certs')) && /--certs-dir/.test(err.message))
  })

  it('names the corrupt file and the fix', async () => {
    await loadOrCreateCertificate({ dir })
    fs.writeFileSync(path.join(dir, 'cert.pem'), 'garbage')
    await assert.rejects(loadOrCreateCertificate({ dir }),
      err => err.message.includes(path.join(dir, 'cert.pem')) && /npm run certs/.test(err.message))
  })

  it('names an unreadable key and the fix', async function () {
    await loadOrCreateCertificate({ dir })
    fs.rmSync(path.join(dir, 'key.pem'))
    fs.mkdirSync(path.join(dir, 'key.pem'))
    await assert.rejects(loadOrCreateCertificate({ dir }),
      err => err.message.includes(`cannot read the private key ${path.join(dir, 'key.pem')}`) && /npm run certs/.test(err.message))
  })
})
