'use strict'

// What the link's cross traffic did (harness/cross-traffic/index.js): per flow its
// receiver's byte count and throughput, per direction Jain's fairness index
// over its flows, and the measured workload's share of what the link
// forwarded: the bytes that were not cross traffic.

const { DIRECTIONS } = require('./spec-values')

// Jain's fairness index (Jain, Chiu, Hawe 1984): (Σx)² ÷ (n·Σx²); 1 when all
// are equal, 1/n when one takes everything. null for no flows or nothing carried.
function jainIndex (xs) {
  if (!xs.length) return null
  const sum = xs.reduce((a, b) => a + b, 0)
  const squares = xs.reduce((a, b) => a + b * b, 0)
  return squares > 0 ? (sum * sum) / (xs.length * squares) : null
}

// IP bytes on the link per byte a flow's receiver counted, in the flow's direction (`data`) and the
// other (`reverse`: its acknowledgements), on the link's 1500-byte MTU. The receivers count payload;
// the forwarder counts IP packets.
const IP_PER_BYTE = {
  // A full TCP segment carries 1448 bytes in 1500 of IP (20 IP + 20 TCP + 12 of timestamp option).
  // Its receiver's 52-byte ACKs: one per two segments would be 1.8 % (RFC 5681's delayed ACK), but
  // Linux acknowledges more often while it grows its window (quick ACKs): measured on this link
  // (iperf3, 10 Mbit/s, one and two flows) 2.0–2.2 % of the payload, so 2.1 %.
  tcp: { data: 1500 / 1448, reverse: 0.021 },
  // quic-go (Caddy ↔ h3get): packets of 1,280 IP bytes, up to 1,480 after path MTU discovery, each
  // carrying 28 bytes of IP and UDP, a short header, a 16-byte AEAD tag and frame headers; ACKs,
  // one per two packets (RFC 9000 §13.2.2), the other way. Measured on this link (10 Mbit/s,
  // 7 MB): 1.044 IP bytes per byte received, 2.6 % back.
  quic: { data: 1.044, reverse: 0.026 }
}
// A web flow's object is one HTTP/1.1 exchange: about this much of request and response headers on top of the body.
const WEB_HEADER_BYTES = 200
const TRANSPORT = { cubic: 'tcp', bbr: 'tcp', reno: 'tcp', web: 'tcp', quic: 'quic' }

// A flow's IP bytes on the link: its receiver's kernel's count where there is one (TCP flows:
// harness/cross-traffic/tcp-info.js, `linkBytes`), else estimated from its receiver's count: { data, reverse }.
function flowIpBytes (flow) {
  if (flow.linkBytes) return { data: flow.linkBytes.data, reverse: flow.linkBytes.reverse }
  const per = IP_PER_BYTE[TRANSPORT[flow.kind]]
  const headers = flow.kind === 'web' ? (flow.objects || 0) * WEB_HEADER_BYTES : 0
  return { data: (flow.bytes + headers) * per.data, reverse: flow.bytes * per.reverse + headers * per.data }
}

// flows: [{ kind, direction, bytes, seconds, … }] → the report (JSON as it is).
function crossReport (flows, { startedAt, stoppedAt }) {
  const out = flows.map(f => ({ ...f, bps: f.seconds > 0 ? (f.bytes * 8) / f.seconds : 0 }))
  const directions = {}
  const crossIpBytes = { up: 0, down: 0 }
  for (const f of out) {
    const ip = flowIpBytes(f)
    crossIpBytes[f.direction] += ip.data
    crossIpBytes[f.direction === 'up' ? 'down' : 'up'] += ip.reverse
  }
  for (const dir of DIRECTIONS) {
    const mine = out.filter(f => f.direction === dir)
    directions[dir] = {
      flows: mine.length,
      bytes: mine.reduce((a, f) => a + f.bytes, 0),
      bps: mine.reduce((a, f) => a + f.bps, 0),
      jain: jainIndex(mine.map(f => f.bps)),
      crossIpBytes: Math.round(crossIpBytes[dir])
    }
  }
  return { startedAt, stoppedAt, seconds: (stoppedAt - startedAt) / 1000, flows: out, directions }
}

// The measured workload's share of each direction's forwarded bytes: 1 − the cross flows' IP bytes
// (estimated from their receivers' counts, above) ÷ the forwarder's out_bytes, from stats that
// cover the flows' whole run (the link's since it opened, read after the flows stopped).
// `reports`: one report or several (the flows of each spec the link had). → { up, down }: 0…1, or null where nothing went.
function workloadShare (reports, stats) {
  const list = Array.isArray(reports) ? reports : [reports]
  const out = {}
  for (const dir of DIRECTIONS) {
    const forwarded = stats[dir].out_bytes
    const cross = list.reduce((a, r) => a + r.directions[dir].crossIpBytes, 0)
    out[dir] = forwarded > 0 ? Math.min(1, Math.max(0, 1 - cross / forwarded)) : null
  }
  return out
}

const mbit = bps => `${(bps / 1e6).toFixed(bps >= 1e8 ? 0 : 2)} Mbit/s`
const mb = bytes => `${(bytes / 1e6).toFixed(bytes >= 1e8 ? 0 : 2)} MB`
const pct = x => (x === null ? '–' : `${(100 * x).toFixed(1)} %`)

// The reports as a table, after the link's counters (bin/h2bench-link.js).
function formatCrossReports (reports, stats) {
  const lines = []
  for (const r of reports) {
    lines.push(`cross traffic (${r.seconds.toFixed(1)} s)  ${'direction'.padEnd(9)}  ${'received'.padStart(10)}  ${'seconds'.padStart(7)}  ${'throughput'.padStart(13)}`)
    for (const f of r.flows) {
      const extra = f.kind === 'web' ? `  ${f.objects} objects, on ${f.onSeconds === null ? '?' : f.onSeconds.toFixed(1)} s` : ''
      lines.push(`  ${f.kind.padEnd(20)}  ${f.direction.padEnd(9)}  ${mb(f.bytes).padStart(10)}  ${f.seconds.toFixed(1).padStart(7)}  ${mbit(f.bps).padStart(13)}${extra}${f.error ? `  error: ${f.error}` : ''}`)
    }
    for (const dir of DIRECTIONS) {
      const d = r.directions[dir]
      if (d.flows) lines.push(`  ${dir}: ${d.flows} flow${d.flows === 1 ? '' : 's'}, ${mbit(d.bps)} in all, Jain's index ${d.jain === null ? '–' : d.jain.toFixed(3)}`)
    }
  }
  if (stats && reports.length) {
    const share = workloadShare(reports, stats)
    lines.push(`  the workload's share of the bytes forwarded (the rest cross traffic, estimated from its receivers' counts): up ${pct(share.up)}, down ${pct(share.down)}`)
  }
  return lines.join('\n')
}

module.exports = { jainIndex, flowIpBytes, crossReport, workloadShare, formatCrossReports, IP_PER_BYTE, WEB_HEADER_BYTES }
