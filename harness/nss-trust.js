'use strict'

// A CA trusted by a throw-away browser through an NSS database of its own, the one place certutil is called.
// Firefox reads the database in its profile directory (harness/firefox/profile.js); Chromium on Linux reads
// $HOME/.pki/nssdb, so the measuring Chromium is started with HOME set to a directory inside its throw-away
// profile (harness/chromium/headless.js) holding a database made here: every origin whose chain ends at that
// CA is trusted, whatever its leaf, and nothing of the machine's own trust store (the system's roots, the
// real $HOME/.pki) is read for it or changed. The database has an empty password (certutil -N
// --empty-password) and the CA the trust flags "C,," (a CA trusted to issue server certificates: TLS only,
// not e-mail or code signing).
const fs = require('node:fs')
const path = require('node:path')
const crypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const { UserError } = require('../common/errors')

const NSS_PACKAGE = 'libnss3-tools'
const NSS_INSTALL_HINT = `apt-get install -y ${NSS_PACKAGE}`
const CERTUTIL_TIMEOUT_MS = 30000
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/

// The database could not be made: no certutil (its message names the package), or certutil refused.
class NssTrustError extends UserError {
  constructor (message, options = {}) {
    super(message, { status: 503, code: 'H2B_NSS_TRUST', ...options })
  }
}

// Where Chromium on Linux looks for its NSS database under `home` (its $HOME).
const chromiumNssDir = home => path.join(home, '.pki', 'nssdb')

// `ca`: a CA's PEM text, or the name of a file holding it → { pem, file (null for text) }.
function caSource (ca) {
  const text = String(ca || '')
  if (!text) throw new NssTrustError('no CA given to trust (a PEM text or the name of a PEM file)')
  if (PEM_CERTIFICATE.test(text)) return { pem: text, file: null }
  let pem
  try {
    pem = fs.readFileSync(text, 'utf8')
  } catch (err) {
    throw new NssTrustError(`the CA ${text}: cannot read it (${err.code || err.message})`)
  }
  if (!PEM_CERTIFICATE.test(pem)) throw new NssTrustError(`the CA ${text}: no PEM certificate in it`)
  return { pem, file: text }
}

// The CA's subject in one line ("CN=h2bench replay CA, O=…"), for the log; null when the PEM does not parse.
function caSubject (pem) {
  try {
    return new crypto.X509Certificate(pem).subject.replace(/\n/g, ', ')
  } catch {
    return null
  }
}

// The certutil commands that make a database in `dir` trusting the CA in `caFile` under `nickname`, in order.
function certutilCommands (dir, caFile, nickname) {
  const db = `sql:${dir}`
  return [
    ['-N', '-d', db, '--empty-password'],
    ['-A', '-n', nickname, '-t', 'C,,', '-i', caFile, '-d', db]
  ]
}

// What a failed certutil run means, in one line: ENOENT names the package. `forWhom`: whose database it is.
function certutilFailure (err, args, forWhom) {
  if (err && err.code === 'ENOENT') return `no certutil, which puts the CA into ${forWhom} (package ${NSS_PACKAGE}: ${NSS_INSTALL_HINT})`
  const said = String((err && (err.stderr || err.stdout)) || (err && err.message) || err).trim().split('\n').slice(-3).join(' ')
  return `certutil ${args.join(' ')} failed: ${said}`
}

// Makes the NSS database in `dir` (created if need be) trusting the CA `ca` (PEM text or a file's name) for
// TLS servers. `nickname`: its name in the database; `forWhom`: for the error messages ("Firefox's profile").
// → { dir, pem, subject }. NssTrustError when certutil is missing or refuses.
function trustCaInNssDb (dir, { ca, nickname = 'h2bench trusted CA', forWhom = "the browser's NSS database" } = {}) {
  const source = caSource(ca)
  fs.mkdirSync(dir, { recursive: true })
  let file = source.file
  if (!file) {
    file = path.join(dir, 'h2bench-ca.pem')
    fs.writeFileSync(file, source.pem)
  }
  for (const args of certutilCommands(dir, file, nickname)) {
    try {
      execFileSync('certutil', args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: CERTUTIL_TIMEOUT_MS })
    } catch (err) {
      throw new NssTrustError(certutilFailure(err, args, forWhom), { cause: err })
    }
  }
  return { dir, pem: source.pem, subject: caSubject(source.pem) }
}

module.exports = {
  trustCaInNssDb, certutilCommands, certutilFailure, caSource, caSubject, chromiumNssDir, NssTrustError, NSS_PACKAGE, NSS_INSTALL_HINT
}
