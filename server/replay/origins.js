'use strict'

// The replay's plan: where each recorded origin listens and which
// certificate it shows. Each distinct recorded certificate (certId) becomes
// one leaf naming every name of the origins that used it; each distinct
// recorded address (with the certificate shown there) becomes its own
// loopback address 127.0.1.1, 127.0.1.2, … (never 127.0.0.1, where other
// servers of the machine may be), so origins that shared an address and a
// certificate share them again and a browser may coalesce their connections
// as it did; each origin listens on its recorded port unless `ports` moves
// it. Chromium is sent there by --host-resolver-rules. Behind a packet-level
// link the addresses are the link's instead (`addresses`: link/namespace.js
// addServerAddresses, as many as addressCount says), taken in the same order.

// The n-th replay address (n from 0): 127.0.1.1 … 127.0.1.254, 127.0.2.1, …
function replayAddress (n) {
  const third = 1 + Math.floor(n / 254)
  if (third > 255) throw new RangeError(`more than ${255 * 254} replay addresses`)
  return `127.0.${third}.${1 + n % 254}`
}

// archive → { certs: [{ certIndex, certId, names, origins }], listeners: [{ address, port, names, origins, certIndex }],
// origins: [{ origin, host, address, port, recordedPort, certIndex }], mapping: [{ host, port, address, servedPort }], hostResolverRules }
// `ports`: { origin: port } or origin => port, to listen elsewhere than the recorded port (tests without a namespace).
// `addresses`: the addresses to use in order instead of 127.0.1.1, 127.0.1.2, … (RangeError when too few).
function planReplay (archive, { ports = null, addresses = null } = {}) {
  const portFor = o => {
    const p = typeof ports === 'function' ? ports(o.origin) : ports && ports[o.origin]
    return Number.isInteger(p) ? p : o.port
  }
  const certs = []
  const certOf = new Map()
  for (const o of archive.origins) {
    const id = o.certId || `own:${o.origin}` // no recorded id: a certificate of its own
    if (!certOf.has(id)) {
      certOf.set(id, certs.length)
      certs.push({ certIndex: certs.length, certId: id, names: [], origins: [] })
    }
    const cert = certs[certOf.get(id)]
    cert.origins.push(o.origin)
    for (const n of [...o.certNames, o.host]) if (!cert.names.includes(n)) cert.names.push(n)
  }
  const groups = addressGroups(archive, certOf)
  const needed = new Set(groups.values()).size
  if (addresses && addresses.length < needed) {
    throw new RangeError(`the replay needs ${needed} addresses (one per recorded address and certificate); given ${addresses.length}`)
  }
  const addressOf = new Map()
  const origins = archive.origins.map(o => {
    const certIndex = certOf.get(o.certId || `own:${o.origin}`)
    const group = groups.get(o.origin)
    if (!addressOf.has(group)) addressOf.set(group, addresses ? addresses[addressOf.size] : replayAddress(addressOf.size))
    return { origin: o.origin, host: o.host, address: addressOf.get(group), port: portFor(o), recordedPort: o.port, certIndex }
  })
  const listeners = []
  for (const o of origins) {
    let l = listeners.find(x => x.address === o.address && x.port === o.port)
    if (!l) listeners.push(l = { address: o.address, port: o.port, names: [], origins: [], certIndex: o.certIndex })
    if (!l.names.includes(o.host)) l.names.push(o.host)
    l.origins.push(o.origin)
  }
  const mapping = origins.map(o => ({ host: o.host, port: o.recordedPort, address: o.address, servedPort: o.port }))
  return { certs, listeners, origins, mapping, hostResolverRules: hostResolverRules(mapping) }
}

// Each origin's address group: its recorded address with the certificate shown there (the same address with
// another certificate: apart) → Map origin → group; its distinct groups are the replay's addresses.
// `certOf`: Map certId → certificate index (planReplay's), else each distinct certId in order.
function addressGroups (archive, certOf = null) {
  const ids = certOf || new Map()
  const groups = new Map()
  for (const o of archive.origins) {
    const id = o.certId || `own:${o.origin}`
    if (!ids.has(id)) ids.set(id, ids.size)
    groups.set(o.origin, `${o.address || `none:${o.origin}`} ${ids.get(id)}`)
  }
  return groups
}

// How many addresses the replay of `archive` listens on (what a link must add for it).
const addressCount = archive => new Set(addressGroups(archive).values()).size

// Chromium's --host-resolver-rules value: "MAP host address" for a name all
// of whose ports are at one address; "MAP host:port address[:port]" where its
// ports differ in address, or where the replay moved the port.
function hostResolverRules (mapping) {
  const rules = []
  const hosts = [...new Set(mapping.map(m => m.host))]
  for (const host of hosts) {
    const mine = mapping.filter(m => m.host === host)
    const name = host.includes(':') ? `[${host}]` : host
    const at = a => a.includes(':') ? `[${a}]` : a
    if (new Set(mine.map(m => m.address)).size === 1 && mine.every(m => m.port === m.servedPort)) {
      rules.push(`MAP ${name} ${at(mine[0].address)}`)
    } else {
      for (const m of mine) rules.push(`MAP ${name}:${m.port} ${at(m.address)}${m.servedPort !== m.port ? `:${m.servedPort}` : ''}`)
    }
  }
  return rules.join(', ')
}

module.exports = { planReplay, replayAddress, addressCount, hostResolverRules }
