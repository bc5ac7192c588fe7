'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const crypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const selfsigned = require('selfsigned')
const { loadOrCreateCertificate, generateCertificate, pemBlocks, CertError } = require('../../../server/certs')

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
    assert.deepEqual(fs.readdirSync(dir).sort(), ['ca.pem', 'cert.pem', 'key.pem'])
  })

  it('writes the chain (leaf, then the local CA) to cert.pem and the CA alone to ca.pem, and keeps no CA key', async () => {
    const made = await loadOrCreateCertificate({ dir })
    const chain = pemBlocks(fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'))
    assert.equal(chain.length, 2)
    const [leaf, ca] = chain.map(pem => new crypto.X509Certificate(pem))
    assert.equal(made.caFile, path.join(dir, 'ca.pem'))
    assert.equal(made.ca, fs.readFileSync(made.caFile, 'utf8'))
    assert.deepEqual(pemBlocks(made.ca), [chain[1]])
    assert.equal(made.cert, chain.join('\n') + '\n')
    assert.equal(leaf.subject, 'CN=localhost')
    assert.equal(ca.subject, 'CN=h2bench local CA')
    assert.equal(leaf.ca, false)
    assert.equal(ca.ca, true)
    assert.ok(leaf.checkIssued(ca))
    assert.ok(leaf.verify(ca.publicKey))
    assert.ok(ca.verify(ca.publicKey)) // the CA is self-signed: a root
    assert.ok(leaf.checkPrivateKey(crypto.createPrivateKey(made.key)))
    assert.equal(made.spki, crypto.createHash('sha256').update(leaf.publicKey.export({ type: 'spki', format: 'der' })).digest('base64'))
    assert.equal(ca.publicKey.asymmetricKeyDetails.modulusLength, 2048)
    const caText = execFileSync('openssl', ['x509', '-noout', '-text'], { input: made.ca }).toString()
    assert.match(caText, /Basic Constraints: critical\s+CA:TRUE, pathlen:0/)
    assert.match(caText, /Key Usage: critical\s+Certificate Sign, CRL Sign/)
    const leafText = execFileSync('openssl', ['x509', '-noout', '-text'], { input: made.cert }).toString()
    assert.match(leafText, /Basic Constraints:\s+CA:FALSE/)
    assert.match(leafText, /Key Usage:\s+Digital Signature, Key Encipherment/)
    assert.match(leafText, /Extended Key Usage:\s+TLS Web Server Authentication/)
    // openssl agrees the chain is sound with the CA as the only trust anchor
    fs.writeFileSync(path.join(dir, 'leaf.pem'), chain[0])
    assert.match(execFileSync('openssl', ['verify', '-CAfile', made.caFile, path.join(dir, 'leaf.pem')]).toString(), /: OK/)
    const everything = fs.readdirSync(dir).map(f => fs.readFileSync(path.join(dir, f), 'utf8')).join('')
    assert.equal((everything.match(/PRIVATE KEY-----/g) || []).length, 2) // BEGIN and END of the leaf's key, nothing else
  })

  it('replaces an older single self-signed certificate (no ca.pem), saying why', async () => {
    // what h2bench made before: one self-signed leaf, CA:FALSE
    const old = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'rsa', keySize: 2048, algorithm: 'sha256',
      extensions: [{ name: 'basicConstraints', cA: false }, { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }]
    })
    fs.writeFileSync(path.join(dir, 'key.pem'), old.private, { mode: 0o600 })
    fs.writeFileSync(path.join(dir, 'cert.pem'), old.cert)
    const made = await loadOrCreateCertificate({ dir })
    assert.equal(made.created, true)
    assert.match(made.reason, /no local CA \(ca\.pem\): made by an older h2bench/)
    assert.equal(pemBlocks(fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8')).length, 2)
    assert.ok(fs.existsSync(path.join(dir, 'ca.pem')))
    assert.equal((await loadOrCreateCertificate({ dir })).created, false)
  })

  it('replaces a leaf that ca.pem did not sign, saying why', async () => {
    await loadOrCreateCertificate({ dir })
    const other = await generateCertificate()
    fs.writeFileSync(path.join(dir, 'ca.pem'), other.ca)
    const made = await loadOrCreateCertificate({ dir })
    assert.equal(made.created, true)
    assert.match(made.reason, /not signed by the local CA in ca\.pem/)
    const [leaf] = pemBlocks(made.cert).map(pem => new crypto.X509Certificate(pem))
    assert.ok(leaf.checkIssued(new crypto.X509Certificate(fs.readFileSync(path.join(dir, 'ca.pem')))))
  })

  it('names a key that does not belong to the leaf', async () => {
    await loadOrCreateCertificate({ dir })
    fs.writeFileSync(path.join(dir, 'key.pem'), (await generateCertificate()).key)
    await assert.rejects(loadOrCreateCertificate({ dir }),
      err => err instanceof CertError && err.message.includes(`${path.join(dir, 'key.pem')} does not belong to`))
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
