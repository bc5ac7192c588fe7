'use strict'

// The certificates of one replay: a CA made for it alone and one leaf per
// recorded certificate (server/replay/origins.js certs), naming the names
// that certificate covered. The CA's key is dropped once the leaves are
// signed (as server/certs.js does for the lanes' CA), so nothing more can
// ever be signed by it. Both browsers and any client trust the CA itself
// (the browsers in their throw-away NSS databases: harness/nss-trust.js);
// each leaf's SPKI hash (server/certs.js spkiHash) is kept for the record.
// ECDSA P-256 keys: made in milliseconds, where RSA 2048 takes a good part of
// a second each on this machine's 2 cores.
const net = require('node:net')
const selfsigned = require('selfsigned')
const { spkiHash } = require('../certs')

const VALID_DAYS = 30
const CA_NAME = 'h2bench replay CA'

const pemEnd = pem => pem.trimEnd() + '\n'
// A SAN entry for a name: an IP address (an origin recorded by address) or a DNS name.
const altName = name => net.isIP(name) ? { type: 7, ip: name } : { type: 2, value: name }

// certs: [{ names }] → { caPem, leaves: [{ key, cert (leaf then CA), names, spki }], spki: [each leaf's hash] }
async function makeReplayCertificates (certs) {
  const notBeforeDate = new Date(Date.now() - 60 * 1000)
  const notAfterDate = new Date(notBeforeDate.getTime() + VALID_DAYS * 86400 * 1000)
  const common = { keyType: 'ec', curve: 'P-256', algorithm: 'sha256', notBeforeDate, notAfterDate }
  const ca = await selfsigned.generate([{ name: 'commonName', value: CA_NAME }], {
    ...common,
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }
    ]
  })
  const leaves = []
  for (const { names } of certs) {
    const leaf = await selfsigned.generate([{ name: 'commonName', value: names[0].replace(/^\*\./, 'wildcard.') }], {
      ...common,
      ca: { key: ca.private, cert: ca.cert },
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: names.map(altName) }
      ]
    })
    const cert = pemEnd(leaf.cert) + pemEnd(ca.cert)
    leaves.push({ key: pemEnd(leaf.private), cert, names: [...names], spki: spkiHash(cert) })
  }
  return { caPem: pemEnd(ca.cert), leaves, spki: leaves.map(l => l.spki) }
}

module.exports = { makeReplayCertificates, CA_NAME }
