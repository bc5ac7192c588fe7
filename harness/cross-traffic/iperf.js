'use strict'

// A bulk TCP cross flow (cross=cubic, bbr or reno): iperf3, the tool the QUIC
// interop runner's `crosstraffic` case runs beside its transfer (an iperf3
// client and server, IPERF_CONGESTION=cubic). The server sends and the client
// receives (iperf3 -R), so the receiver is always the process we stop, and its
// own JSON (-J) says what it received when it is interrupted:
//   down: the server on the lanes side at the link's server address, the client in the client namespace;
//   up:   the server in the client namespace at the client's address, the client on the lanes side.
// -C sets the congestion control on both ends (iperf3 passes it to the server,
// which sends); -t 0 runs until stopped; -i 0 keeps no per-second intervals.

const fs = require('node:fs')
const { freePort } = require('../../server/edge/caddy')
const { waitExit, waitListening, freePortIn, installed } = require('./processes')

const INSTALL = 'install iperf3 (Debian/Ubuntu: sudo apt-get install -y iperf3)'
const STOP_TIMEOUT_MS = 5000

function availableCongestionControls () {
  try {
    return fs.readFileSync('/proc/sys/net/ipv4/tcp_available_congestion_control', 'utf8').trim().split(/\s+/)
  } catch {
    return null // not Linux, or /proc hidden: iperf3 will say
  }
}

// Why a TCP flow of congestion control `kind` cannot run here, or null.
function iperfUnavailable (kind) {
  if (!installed('iperf3')) return `cross=${kind} runs iperf3, which is not installed: ${INSTALL}`
  const ccs = availableCongestionControls()
  if (ccs && !ccs.includes(kind)) {
    return `cross=${kind}: this kernel has no ${kind} congestion control (available: ${ccs.join(', ')}); load it (modprobe tcp_${kind}) or choose one of those`
  }
  return null
}

// The receiver's numbers from iperf3's JSON: { bytes, seconds, congestion, error }.
function parseIperfJson (text) {
  let json
  try {
    json = JSON.parse(text)
  } catch {
    return { bytes: 0, seconds: 0, error: `iperf3 printed no JSON result${text.trim() ? `: ${text.trim().slice(0, 200)}` : ''}` }
  }
  const received = json.end && json.end.sum_received
  // Stopping it is how it ends: its "interrupt" is no error.
  const error = json.error && !/^interrupt/.test(json.error) ? json.error : null
  return {
    bytes: received ? received.bytes : 0,
    seconds: received ? received.seconds : 0,
    congestion: (json.end && (json.end.sender_tcp_congestion || json.end.receiver_tcp_congestion)) || null,
    error: error || (received ? null : 'iperf3 received nothing before it was stopped')
  }
}

async function startIperfFlow ({ opened, group }, { kind, direction, bitrate }) {
  const down = direction === 'down'
  const serverHost = down ? opened.serverAddress : opened.clientAddress
  const serverPid = down ? process.pid : opened.pid
  const port = down ? await freePort(opened.serverAddress) : freePortIn(opened.pid, 5201)
  const spawnServer = down ? group.spawnOutside : group.spawnInside
  const spawnClient = down ? group.spawnInside : group.spawnOutside
  const server = spawnServer('iperf3', ['-s', '-1', '-B', serverHost, '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] })
  await waitListening(server, serverPid, port, `iperf3 server (cross=${kind}, ${direction})`)
  const args = ['-c', serverHost, '-p', String(port), '-R', '-C', kind, '-J', '-t', '0', '-i', '0']
  if (bitrate) args.push('-b', String(bitrate)) // a flow held below its fair share (the tests' unfair split)
  const client = spawnClient('iperf3', args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  client.stdout.on('data', d => { stdout += d })
  const startedAt = Date.now()
  return {
    kind,
    direction,
    tcp: { side: down ? 'inside' : 'outside', port }, // where the receiver's sockets are (harness/cross-traffic/tcp-info.js)
    pids: () => [server.pid, client.pid],
    // Interrupts the receiver at once (the caller stops every flow in the same tick), then reads its JSON.
    stop () {
      const early = client.exitCode !== null ? `iperf3 ended by itself (code ${client.exitCode}) ${client.stderrTail.trim()}`.trim() : null
      client.kill('SIGINT')
      return (async () => {
        const done = await waitExit(client, STOP_TIMEOUT_MS)
        if (!done) client.kill('SIGKILL')
        if (!await waitExit(server, 1000)) server.kill('SIGKILL') // -1: it ends with its one test
        const result = parseIperfJson(stdout)
        if (!done) result.error = `iperf3 did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGINT`
        else if (early && result.error) result.error = `${result.error} (${early})`
        return { ...result, wallSeconds: (Date.now() - startedAt) / 1000 }
      })()
    }
  }
}

module.exports = { startIperfFlow, iperfUnavailable, parseIperfJson, availableCongestionControls }
