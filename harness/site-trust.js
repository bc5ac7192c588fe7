'use strict'

// Trusting a site's certificate in both browsers without weakening either:
// with no CA given, the browsers' own roots decide (a public site); with a CA
// of the user's (--ca: a staging server, a company CA), Firefox's throw-away
// profile holds that CA (certutil, harness/firefox/profile.js) and Chromium,
// which takes no CA on its command line, is given the hash of the leaf's key
// (--ignore-certificate-errors-spki-list) after Node has checked here that
// the leaf the origin presents really is signed by that CA for that name.
const fs = require('node:fs')
const tls = require('node:tls')
const net = require('node:net')
const crypto = require('node:crypto')
const { UserError } = require('../common/errors')
const { spkiHash } = require('../server/certs') // Chromium's SPKI hash, the lanes' own (PEM or DER)

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

// → { caFile, caPem, spki, subject } for `url` trusted by the CA in `caFile`: a
// TLS connection to the origin verified against that CA alone (and the host
// name), then the hash of the leaf it presented.
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
  return { caFile, caPem, spki: spkiHash(leaf.raw), subject: leaf.subject ? leaf.subject.CN || null : null }
}

module.exports = { trustSite, readCa, SiteTrustError }
