'use strict'

const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const selfsigned = require('selfsigned')
const { UserError } = require('../common/errors')

const DEFAULT_DIR = path.join(__dirname, '..', 'certs')
const VALID_DAYS = 365
const CA_NAME = 'h2bench local CA'

// The certificate folder cannot be read, written or trusted: the message says which file and why.
class CertError extends UserError {
  constructor (message, options = {}) {
    super(message, { status: 500, code: 'H2B_CERT', ...options })
  }
}

const SAN = {
  name: 'subjectAltName',
  altNames: [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' }
  ]
}

// selfsigned's PEMs end without a newline; a file of several needs one each.
const joinPems = (...pems) => pems.map(p => p.trimEnd() + '\n').join('')

// A fresh local CA and a certificate for localhost, 127.0.0.1 and ::1 that it
// signs: both RSA 2048, signed with SHA-256. The CA (CA:TRUE, path length 0:
// it signs only leaves) is what a browser profile can trust (Firefox refuses
// a self-signed certificate as an end entity); its private key is dropped
// here, once the leaf is signed, so nothing more can ever be signed by it.
// Returns { key (the leaf's), cert (leaf then CA: the chain every lane
// serves), ca (the CA certificate alone) }.
// `ips`: more addresses the leaf is valid for (a packet-level link's server
// address: Firefox checks the name, Chromium's SPKI flag does not); `names`:
// more DNS names (a test's site reached by names of its own hosts file).
async function generateCertificate ({ ips = [], names = [] } = {}) {
  const notBeforeDate = new Date(Date.now() - 60 * 1000)
  const notAfterDate = new Date(notBeforeDate.getTime() + VALID_DAYS * 86400 * 1000)
  const common = { keyType: 'rsa', keySize: 2048, algorithm: 'sha256', notBeforeDate, notAfterDate }
  const ca = await selfsigned.generate([{ name: 'commonName', value: CA_NAME }], {
    ...common,
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }
    ]
  })
  const leaf = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    ...common,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { ...SAN, altNames: [...SAN.altNames, ...ips.map(ip => ({ type: 7, ip })), ...names.map(value => ({ type: 2, value }))] }
    ]
  })
  return { key: joinPems(leaf.private), cert: joinPems(leaf.cert, ca.cert), ca: joinPems(ca.cert) }
}

// The PEM certificates in `text`, in order.
function pemBlocks (text) {
  return String(text).match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) || []
}

// Why the leaf (the first block of certPem) is not one that caPem issued, or
// null when it is.
function notIssuedBy (certPem, caPem) {
  const leaf = new crypto.X509Certificate(certPem)
  const ca = new crypto.X509Certificate(caPem)
  if (!ca.ca) return 'ca.pem is not a CA certificate'
  if (!leaf.checkIssued(ca) || !leaf.verify(ca.publicKey)) return 'not signed by the local CA in ca.pem'
  return null
}

// base64(sha256(SubjectPublicKeyInfo)) of the leaf (the first certificate in
// certPem): what Chrome's --ignore-certificate-errors-spki-list takes.
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

// Loads certs/{cert,key,ca}.pem, creating them on first use (or always, with
// `regenerate`): cert.pem is the chain (leaf, then the local CA), key.pem the
// leaf's private key (mode 0600), ca.pem the local CA alone, for a browser
// profile to trust. A folder from an older h2bench (a self-signed leaf, no
// ca.pem), a leaf that ca.pem did not sign and an expired certificate are
// replaced, `reason` saying why. Returns { key, cert, ca, caFile, spki,
// created, reason?, dir }.
async function loadOrCreateCertificate ({ dir = DEFAULT_DIR, regenerate = false } = {}) {
  const certFile = path.join(dir, 'cert.pem')
  const keyFile = path.join(dir, 'key.pem')
  const caFile = path.join(dir, 'ca.pem')
  const exists = fs.existsSync(certFile) || fs.existsSync(keyFile)
  let created = false
  let reason = null
  if (exists && !regenerate) {
    const cert = readPem(certFile, 'certificate', t => new crypto.X509Certificate(t))
    const key = readPem(keyFile, 'private key', t => crypto.createPrivateKey(t))
    const x509 = new crypto.X509Certificate(cert) // the first block: the leaf
    if (!x509.checkPrivateKey(crypto.createPrivateKey(key))) {
      throw new CertError(`${keyFile} does not belong to ${certFile}: run \`npm run certs\` to create a new pair`)
    }
    if (!fs.existsSync(caFile)) {
      reason = 'had no local CA (ca.pem): made by an older h2bench'
    } else {
      const ca = readPem(caFile, 'CA certificate', t => new crypto.X509Certificate(t))
      const why = notIssuedBy(cert, ca)
      const first = [x509, new crypto.X509Certificate(ca)].sort((p, q) => new Date(p.validTo) - new Date(q.validTo))[0]
      if (why) reason = `was ${why}`
      else if (new Date(first.validTo) > new Date()) return { key, cert, ca, caFile, spki: spkiHash(cert), created, dir }
      else reason = `expired on ${first.validTo}`
    }
  }
  const made = await generateCertificate()
  try {
    fs.mkdirSync(dir, { recursive: true })
    writePrivate(keyFile, made.key)
    fs.writeFileSync(caFile, made.ca)
    fs.writeFileSync(certFile, made.cert)
  } catch (err) {
    throw new CertError(`cannot write the certificate into ${dir} (${err.code || err.message}): ` +
      'choose a writable folder with --certs-dir or H2BENCH_CERTS_DIR')
  }
  created = true
  return { ...made, caFile, spki: spkiHash(made.cert), created, reason, dir }
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

module.exports = { loadOrCreateCertificate, generateCertificate, spkiHash, pemBlocks, CertError, DEFAULT_DIR, CA_NAME }
