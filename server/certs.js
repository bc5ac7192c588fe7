'use strict'

const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const selfsigned = require('selfsigned')

const DEFAULT_DIR = path.join(__dirname, '..', 'certs')
const VALID_DAYS = 365

class CertError extends Error {}

// A fresh self-signed certificate for localhost, 127.0.0.1 and ::1:
// RSA 2048, signed with SHA-256.
async function generateCertificate () {
  const notBeforeDate = new Date(Date.now() - 60 * 1000)
  const notAfterDate = new Date(notBeforeDate.getTime() + VALID_DAYS * 86400 * 1000)
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' }
        ]
      }
    ]
  })
  return { key: pems.private, cert: pems.cert }
}

// base64(sha256(SubjectPublicKeyInfo)): what Chrome's
// --ignore-certificate-errors-spki-list takes.
function spkiHash (certPem) {
  const spki = new crypto.X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' })
  return crypto.createHash('sha256').update(spki).digest('base64')
}

function readPem (file, what, check) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new CertError(`cannot read the ${what} ${file} (${err.code || err.message}): fix its permissions or run \`npm run certs\` to create a new one`)
  }
  try {
    check(text)
  } catch (err) {
    throw new CertError(`${file} is not a valid PEM ${what} (${err.message}): run \`npm run certs\` to create a new one`)
  }
  return text
}

// Loads certs/{cert,key}.pem, creating them on first use (or always, with
// `regenerate`). The private key is written with mode 0600. Returns
// { key, cert, spki, created, dir }.
async function loadOrCreateCertificate ({ dir = DEFAULT_DIR, regenerate = false } = {}) {
  const certFile = path.join(dir, 'cert.pem')
  const keyFile = path.join(dir, 'key.pem')
  const exists = fs.existsSync(certFile) || fs.existsSync(keyFile)
  let created = false
  let reason = null
  if (exists && !regenerate) {
    const cert = readPem(certFile, 'certificate', t => new crypto.X509Certificate(t))
    const key = readPem(keyFile, 'private key', t => crypto.createPrivateKey(t))
    const x509 = new crypto.X509Certificate(cert)
    if (!x509.checkPrivateKey(crypto.createPrivateKey(key))) {
      throw new CertError(`${keyFile} does not belong to ${certFile}: run \`npm run certs\` to create a new pair`)
    }
    if (new Date(x509.validTo) > new Date()) return { key, cert, spki: spkiHash(cert), created, dir }
    reason = `expired on ${x509.validTo}`
  }
  const pair = await generateCertificate()
  try {
    fs.mkdirSync(dir, { recursive: true })
    writePrivate(keyFile, pair.key)
    fs.writeFileSync(certFile, pair.cert)
  } catch (err) {
    throw new CertError(`cannot write the certificate into ${dir} (${err.code || err.message}): ` +
      'choose a writable folder with --certs-dir or H2BENCH_CERTS_DIR')
  }
  created = true
  return { ...pair, spki: spkiHash(pair.cert), created, reason, dir }
}

// The private key is never readable by others, not even for a moment: it is
// written to a new 0600 file that then replaces the old one.
function writePrivate (file, text) {
  const tmp = `${file}.${process.pid}.tmp`
  try {
    fs.writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' })
    fs.renameSync(tmp, file)
  } finally {
    fs.rmSync(tmp, { force: true })
  }
}

module.exports = { loadOrCreateCertificate, generateCertificate, spkiHash, CertError, DEFAULT_DIR }
