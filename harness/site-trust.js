'use strict'

// Trusting a site's certificates in both browsers without weakening either:
// with no CA given, the browsers' own roots decide (a public site); with a CA
// of the user's (--ca: a staging server, a company CA), that CA is trusted by
// the throw-away browser itself, for every origin whose chain ends at it
// (each with a leaf of its own or not), as the browser would trust a root of
// its own store: Firefox through the NSS database of its throw-away profile,
// Chromium through the NSS database of its throw-away home ($HOME/.pki/nssdb,
// HOME a directory inside its profile's): harness/nss-trust.js makes both
// (certutil). No certificate error is ignored, no leaf's hash is given, and
// nothing of the machine's own trust store changes. Before any browser
// starts, trustSite checks here that the page's origin presents a leaf that
// really is signed by that CA for that name (a clear error when not, in one
// line, rather than a run of failed loads); the browsers do not rely on that
// check: they verify every origin's chain themselves. Over QUIC Chromium
// accepts a root outside its own store only for the origins forced onto QUIC
// (--origin-to-force-quic-on: a run forcing h3 does), not after an Alt-Svc
// answer (harness/chromium/headless.js).
const fs = require('node:fs')
const tls = require('node:tls')
const net = require('node:net')
const crypto = require('node:crypto')
const { UserError } = require('../common/errors')
const { spkiHash } = require('../server/certs') // the leaf's SPKI hash, for the record (no browser is given it)
const { caSubject } = require('./nss-trust')

class SiteTrustError extends UserError {
  constructor (message, options = {}) {
    super(message, { status: 400, code: 'H2B_SITE_TRUST', ...options })
  }
}


// The CA file's PEM text, or a SiteTrustError naming the file and what is wrong.
function readCa (file) {
  let pem
  try {
    pem = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new SiteTrustError(`--ca ${file}: cannot read it (${err.code || err.message})`)
  }
  try {
    const cert = new crypto.X509Certificate(pem)
    if (!cert.ca) throw new SiteTrustError(`--ca ${file}: ${cert.subject.replace(/\n/g, ', ')} is not a CA certificate (basicConstraints CA:TRUE); give the CA that signed the site's certificate`)
  } catch (err) {
    if (err instanceof SiteTrustError) throw err
    throw new SiteTrustError(`--ca ${file}: not a PEM certificate (${err.message})`)
  }
  return pem
}

// → { caFile, caPem, caSubject, spki, subject } for `url` trusted by the CA in
// `caFile`: a TLS connection to the origin verified against that CA alone (and
// the host name); `subject`: the leaf's CN, `spki`: its key's hash (what was
// checked, for the log; the browsers are given the CA, caFile/caPem).
async function trustSite (url, caFile, { timeoutMs = 10000 } = {}) {
  const caPem = readCa(caFile)
  const u = new URL(url)
  const host = u.hostname.replace(/^\[|\]$/g, '')
  const port = Number(u.port || 443)
  const leaf = await new Promise((resolve, reject) => {
    const socket = tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ca: caPem, ALPNProtocols: ['http/1.1'] }, () => {
      const cert = socket.getPeerCertificate(false)
      socket.destroy()
      resolve(cert)
    })
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no TLS handshake within ${timeoutMs / 1000} s`)))
    socket.once('error', reject)
  }).catch(err => {
    throw new SiteTrustError(`--ca ${caFile}: ${u.host} ${err.code === 'ECONNREFUSED' ? 'refused the connection' : `failed the check against that CA: ${err.message}`}`)
  })
  return { url, caFile, caPem, caSubject: caSubject(caPem), spki: spkiHash(leaf.raw), subject: leaf.subject ? leaf.subject.CN || null : null }
}

// The log line of a CA trusted for a run: "trusting the CA <subject> from <file> for every origin …", then the
// page origins whose leaves were checked against it (`checked`: trustSite's results).
function trustLine (caFile, caPemText, checked = []) {
  const leaves = checked.map(t => `${new URL(t.url).host}${t.subject ? ` (${t.subject})` : ''}`)
  return `trusting the CA ${caSubject(caPemText) || '(unnamed)'} from ${caFile} for every origin (the browser's throw-away NSS database)` +
    (leaves.length ? `; checked against it first: ${leaves.join(', ')}` : '')
}

module.exports = { trustSite, trustLine, readCa, SiteTrustError }
