'use strict'

// A bulk QUIC cross flow (cross.down=quic): a Caddy of its own (the pinned
// build the h3 lane runs: quic-go) serving one large file over HTTP/3 only at
// the link's server address, and in the client namespace h3get --bulk
// (tools/h3get: quic-go's client) fetching it again and again on one
// connection, counting the body bytes it receives. The file is sparse (1 GiB
// of nothing on disk); at 1 Gbit/s one fetch lasts 8 s, and h3get simply asks
// again.
//
// Only down: an upload would need an HTTP/3 sink of its own on the lanes side
// to count what arrived, which Caddy's file server is not; link/spec.js
// refuses cross.up=quic.

const fs = require('node:fs')
const path = require('node:path')
const { startCaddy, edgeUnavailableReason } = require('../../server/edge/caddy')
const { ensureH3get } = require('../../tools/h3get/build')
const { waitExit, followCounts, CrossTrafficError } = require('./processes')
const { makeTempFolder } = require('../../common/temp-folders')

const FILE_BYTES = 1024 ** 3
const STOP_TIMEOUT_MS = 3000
const FOLDER_PREFIX = 'h2bench-cross-'

// Why a QUIC flow cannot run here, or null (h3get is built on first use when Go is there).
function quicUnavailable () {
  const why = edgeUnavailableReason()
  return why ? `cross=quic serves its data with Caddy: ${why}` : null
}

// The server of every QUIC flow of a cross-traffic run: started by the first, closed by close().
function quicServer ({ opened, tls }) {
  let started = null
  let caddyPid = null
  return {
    async url () {
      started = started || (async () => {
        const dir = makeTempFolder(FOLDER_PREFIX)
        const fd = fs.openSync(path.join(dir, 'bulk'), 'w')
        try {
          fs.ftruncateSync(fd, FILE_BYTES)
        } finally {
          fs.closeSync(fd)
        }
        try {
          const caddy = await startCaddy([{ name: 'cross', host: opened.serverAddress, port: 0, protocols: ['h3'], handle: [{ handler: 'file_server', root: dir }] }], tls)
          caddyPid = caddy.pid
          return { caddy, dir, url: `https://${opened.serverAddress}:${caddy.ports.cross}/bulk` }
        } catch (err) {
          fs.rmSync(dir, { recursive: true, force: true })
          throw new CrossTrafficError(`cross=quic: its Caddy did not start: ${err.message}`, { cause: err })
        }
      })()
      return (await started).url
    },
    caddyPid: () => caddyPid,
    async close () {
      if (!started) return
      const s = await started.catch(() => null)
      if (!s) return
      await s.caddy.close()
      fs.rmSync(s.dir, { recursive: true, force: true })
    }
  }
}

async function startQuicFlow ({ group, quic }, { kind, direction }) {
  let h3get
  try {
    h3get = await ensureH3get()
  } catch (err) {
    throw new CrossTrafficError(`cross=quic fetches with h3get (tools/h3get), which is not built: ${err.message.split('\n')[0]}; build it with \`node bin/h2bench-build.js h3get\``, { cause: err })
  }
  const url = await quic.url()
  // --insecure: the data is filler, and the link's certificate may not name its address.
  const client = group.spawnInside(h3get, ['--insecure', '--bulk', '--every', '1s', url], { stdio: ['pipe', 'pipe', 'pipe'] })
  const counts = followCounts(client)
  const startedAt = Date.now()
  return {
    kind,
    direction,
    pids: () => [client.pid],
    stop () {
      client.stdin.end() // h3get prints its count and exits
      return (async () => {
        const timer = new Promise(resolve => setTimeout(resolve, STOP_TIMEOUT_MS))
        await Promise.race([counts.finished, timer])
        const last = counts.last()
        const final = Boolean(last && last.final)
        if (!await waitExit(client, final ? 1000 : 0)) client.kill('SIGKILL')
        const counted = last && !last.error
        const seconds = counted && last.firstByteMs >= 0 ? (last.ms - last.firstByteMs) / 1000 : 0
        let error = null
        if (!last) error = `h3get printed nothing: ${client.stderrTail.trim() || 'no reason given'}`
        else if (last.error) error = last.error
        else if (!final) error = `h3get did not report when stopped (its last count, ${last.ms} ms in, is used)`
        else if (!last.bytes) error = `no bytes received${last.lastError ? `: ${last.lastError}` : ''}`
        return {
          bytes: counted ? last.bytes : 0,
          seconds,
          requests: counted ? last.requests : 0,
          connections: counted ? last.connections : 0,
          error,
          wallSeconds: (Date.now() - startedAt) / 1000
        }
      })()
    }
  }
}

module.exports = { startQuicFlow, quicServer, quicUnavailable, FILE_BYTES }
