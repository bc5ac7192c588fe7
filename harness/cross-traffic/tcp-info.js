'use strict'

// What the link carried for a TCP cross flow, from its receiver's kernel
// (tcp_info, as `ss -ti` prints it), read the moment the flows stop. A flow's
// receiver counts the bytes it got once; the link also carried the
// retransmissions that arrived twice (a CUBIC flow that fills a deep queue
// resends what it thinks lost: up to a few % of its bytes) and the receiver's
// ACKs the other way. The kernel counts every segment in and out, so:
//   its direction: max(bytes received, data segments in × rcvmss) + segments in × 52
//   the other:     bytes sent + segments out × 52
// 52 bytes of IP and TCP header each (20 + 20 + 12 of timestamp option; SACK
// blocks on some ACKs are left out). Where ss cannot say (a connection
// already gone), link/cross-report.js falls back to its model.

const HEADER_BYTES = 52

const field = (info, name) => {
  const m = new RegExp(`\\b${name}:(\\d+)`).exec(info)
  return m ? Number(m[1]) : 0 // ss leaves out counters that are 0
}
const portOf = address => Number(address.slice(address.lastIndexOf(':') + 1))

// `ss -tinH state established` → [{ localPort, peerPort, bytesReceived, bytesSent, segsIn, segsOut, dataSegsIn, rcvMss }].
function parseSs (text) {
  const sockets = []
  let current = null
  for (const line of text.split('\n')) {
    const head = /^\s*\d+\s+\d+\s+(\S+)\s+(\S+)/.exec(line)
    if (head && !/^\s/.test(line)) {
      current = { localPort: portOf(head[1]), peerPort: portOf(head[2]) }
      sockets.push(current)
    } else if (current && /\bsegs_(in|out):/.test(line)) {
      Object.assign(current, {
        bytesReceived: field(line, 'bytes_received'),
        bytesSent: field(line, 'bytes_sent'),
        segsIn: field(line, 'segs_in'),
        segsOut: field(line, 'segs_out'),
        dataSegsIn: field(line, 'data_segs_in'),
        rcvMss: field(line, 'rcvmss') || 1448
      })
      current = null
    }
  }
  return sockets.filter(s => s.segsIn !== undefined)
}

// The IP bytes of the sockets (in the receiver's namespace) of a flow on `port`: { data, reverse, sockets }, or null for none.
function tcpLinkBytes (sockets, port) {
  const mine = sockets.filter(s => s.localPort === port || s.peerPort === port)
  if (!mine.length) return null
  let data = 0
  let reverse = 0
  for (const s of mine) {
    data += Math.max(s.bytesReceived, s.dataSegsIn * s.rcvMss) + s.segsIn * HEADER_BYTES
    reverse += s.bytesSent + s.segsOut * HEADER_BYTES
  }
  return { data, reverse, sockets: mine.length }
}

// Runs `ss` in the client namespace and here (the lanes' side) at once; { inside, outside }: sockets, or null where it failed.
async function tcpSnapshot (group, sides) {
  const read = spawnFn => new Promise(resolve => {
    let out = ''
    const child = spawnFn('ss', ['-tinH', 'state', 'established'], { stdio: ['ignore', 'pipe', 'ignore'] })
    child.stdout.on('data', d => { out += d })
    child.once('error', () => resolve(null))
    child.once('close', code => resolve(code === 0 ? parseSs(out) : null))
  })
  const [inside, outside] = await Promise.all([
    sides.includes('inside') ? read(group.spawnInside) : null,
    sides.includes('outside') ? read(group.spawnOutside) : null
  ])
  return { inside, outside }
}

module.exports = { parseSs, tcpLinkBytes, tcpSnapshot, HEADER_BYTES }
