'use strict'

// Whose are the server's sockets? The soak server (soak-server.js) holds
// Chromium's connections to the Node lanes and, behind the edge lanes, the
// connections Caddy pools to their apps (at most EDGE_UPSTREAM_CONNS each):
// the second follow the load, the first should not. The kernel says which is
// which: /proc/self/net/tcp{,6} gives each TCP socket's inode, local port and
// state, and /proc/self/fd the inodes this process holds.

// TCP states of /proc/net/tcp (include/net/tcp_states.h).
const TCP_LISTEN = 0x0a
const TCP_CLOSE_WAIT = 0x08

// The TCP sockets of a /proc/net/tcp (or tcp6) text: inode → { localPort, state }.
function parseTcpTable (text, into = new Map()) {
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/)
    if (f.length < 10) continue
    const localPort = parseInt(f[1].split(':')[1], 16)
    const state = parseInt(f[3], 16)
    const inode = f[9]
    if (inode !== '0') into.set(inode, { localPort, state })
  }
  return into
}

// The socket inodes this process holds (from readlink targets 'socket:[N]'),
// sorted by owner: `pool` (connected to one of `poolPorts`, the edge apps'
// ports: Caddy's upstream connections), `listen`, `clients` (every other TCP
// connection: the browser's to the Node lanes and the page), `other` (not TCP:
// UDP, the IPC channel), and across them `closeWait` (the peer closed, this
// process has not: what a leak of sockets leaves behind).
function classifySockets (inodes, table, poolPorts) {
  const out = { pool: 0, listen: 0, clients: 0, other: 0, closeWait: 0 }
  for (const inode of inodes) {
    const s = table.get(inode)
    if (!s) { out.other++; continue }
    if (s.state === TCP_CLOSE_WAIT) out.closeWait++
    if (s.state === TCP_LISTEN) out.listen++
    else if (poolPorts.has(s.localPort)) out.pool++
    else out.clients++
  }
  return out
}

module.exports = { parseTcpTable, classifySockets, TCP_LISTEN, TCP_CLOSE_WAIT }
