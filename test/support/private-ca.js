'use strict'

// A site of several origins under one private CA, each origin with a leaf of its own, as a company's or a
// staging CA gives them (issue 42: four names on three servers, one CA): the CA (its key dropped once the
// leaves are signed) and one leaf per entry of `leaves`, each naming its addresses or DNS names. ECDSA P-256:
// made in milliseconds. `name`: the CA's common name (a second CA, a stranger's, gets another).
// → { caPem, leaves: [{ key, cert (leaf then CA), names, spki }] }.
const net = require('node:net')
const selfsigned = require('selfsigned')
const { spkiHash } = require('../../server/certs')

const pemEnd = pem => pem.trimEnd() + '\n'
const altName = name => net.isIP(name) ? { type: 7, ip: name } : { type: 2, value: name }

async function makePrivateCa ({ leaves, name = 'h2bench test private CA' }) {
  const notBeforeDate = new Date(Date.now() - 60 * 1000)
  const notAfterDate = new Date(notBeforeDate.getTime() + 7 * 86400 * 1000)
  const common = { keyType: 'ec', curve: 'P-256', algorithm: 'sha256', notBeforeDate, notAfterDate }
  const ca = await selfsigned.generate([{ name: 'commonName', value: name }], {
    ...common,
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }
    ]
  })
  const made = []
  for (const names of leaves) {
    const leaf = await selfsigned.generate([{ name: 'commonName', value: names[0] }], {
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
    made.push({ key: pemEnd(leaf.private), cert, names: [...names], spki: spkiHash(cert) })
  }
  return { caPem: pemEnd(ca.cert), leaves: made }
}

module.exports = { makePrivateCa }
