'use strict'

const fs = require('node:fs')
const path = require('node:path')
const net = require('node:net')
const dgram = require('node:dgram')
const { spawn, spawnSync } = require('node:child_process')
const debug = require('debug')('h2bench:caddy')
const { ensureCaddy } = require('../../tools/caddy/build')
const { UserError } = require('../../common/errors')
const { makeTempFolder } = require('../../common/temp-folders')

// Caddy, a maintained HTTP/3 server (quic-go), as the edge in front of the
// shared app: one process, one server per edge lane (server/lanes/h3-caddy.js,
// h2-caddy.js), each reverse-proxying to that lane's own app on a loopback
// port. The config is Caddy's native JSON, written to a throw-away folder:
// no admin endpoint, no automatic HTTPS (no ACME, no port 80), our
// certificate, streaming (flush_interval -1, every write passed on at once),
// and the protocol the edge spoke handed to the app in a request header.

const INSTALL_HINT = 'build Caddy with `npm run build:caddy` (needs Go >= 1.26; `npm install` does it when Go is there), ' +
  'or install one (Debian/Ubuntu: `sudo apt-get install -y caddy`, 2.6.2: see README for its faults), or set CADDY_PATH to its executable'
// What a system Caddy older than 2.7 (Debian 12's 2.6.2: Go 1.19, quic-go
// 0.29) gets wrong, measured by this project's tests and study (README, "HTTP/3").
const OLD_CADDY_NOTE = 'drops the second packet of Chromium\'s two-packet (post-quantum) QUIC ClientHello, costing cold h3 ' +
  'handshakes about two extra round trips, and has no defence against HTTP/2 rapid reset (CVE-2023-44487); ' +
  '`npm run build:caddy` builds a current one'
const EDGE_PROTOCOL_HEADER = 'x-h2bench-edge-protocol'
// The client's address and port as the edge saw them (for QUIC the UDP port
// of the connection): the app's connection ledger (server/ledger.js) counts
// client connections by it, as it does on the Node lanes from the socket.
const EDGE_CLIENT_HEADER = 'x-h2bench-edge-client'
const READY = 'serving initial configuration'
const START_TIMEOUT_MS = 15000
const UPSTREAM_IDLE_S = 60 // the lanes' apps keep idle connections 120 s (server/lanes/edge.js)
// Caddy's proxy takes an upstream connection for each request in flight;
// unbounded, 10,000 in flight (seed 004's h2load -c 100 -m 100) dialled
// thousands at once, the app's listen queue (Node's default 511) overflowed
// and each dropped dial waited for TCP's 1 s SYN retransmission. So Caddy
// holds at most EDGE_UPSTREAM_CONNS (the rest wait in Caddy for one), and the
// app listens with a queue that takes them all at once (test/server/slow/
// edge-upstream.test.js; Linux caps it at net.core.somaxconn, 4096 by default).
const EDGE_UPSTREAM_CONNS = 1024
const EDGE_APP_BACKLOG = 2 * EDGE_UPSTREAM_CONNS

// The edge lanes cannot start: no Caddy, no free port, Caddy refused its config.
class EdgeError extends UserError {
  constructor (message, options = {}) {
    super(message, { status: 503, code: 'H2B_EDGE_UNAVAILABLE', ...options })
  }
}

// The Caddy to use: CADDY_PATH, else the one tools/caddy builds (pinned,
// current: Caddy 2.11 with quic-go 0.63), else `caddy` on the PATH; null
// when there is none.
function findCaddy (env = process.env) {
  if (env.CADDY_PATH) return fs.existsSync(env.CADDY_PATH) ? env.CADDY_PATH : null
  const built = ensureCaddy.binaryPath()
  if (fs.existsSync(built)) return built
  for (const dir of (env.PATH || '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, 'caddy')
    try {
      fs.accessSync(file, fs.constants.X_OK)
      return file
    } catch {
      // not here: the next folder
    }
  }
  return null
}

// A one-line warning about the Caddy in use, or null: versions before 2.7
// carry the faults in OLD_CADDY_NOTE.
function caddyWarning (version) {
  const m = /^v?(\d+)\.(\d+)/.exec(version || '')
  if (!m || Number(m[1]) > 2 || (Number(m[1]) === 2 && Number(m[2]) >= 7)) return null
  return `Caddy ${version} ${OLD_CADDY_NOTE}`
}

// Why the edge lanes cannot start here, in one line; null when they can.
function edgeUnavailableReason (env = process.env) {
  if (findCaddy(env)) return null
  return env.CADDY_PATH ? `CADDY_PATH=${env.CADDY_PATH} does not exist: ${INSTALL_HINT}` : `no caddy found: ${INSTALL_HINT}`
}

// "v2.6.2" of `caddy version`'s first word, or null.
function caddyVersion (executable = findCaddy()) {
  if (!executable) return null
  const out = spawnSync(executable, ['version'], { encoding: 'utf8', timeout: 5000 })
  return out.status === 0 ? out.stdout.trim().split(/\s+/)[0] : null
}

// Caddy's JSON config. servers: [{ name, host, port, protocols, upstream | handle }],
// upstream 'HOST:PORT' of the lane's app; files: { cert, key, data }.
function caddyConfig (servers, files) {
  const tag = 'h2bench'
  return {
    admin: { disabled: true },
    logging: { logs: { default: { level: 'INFO', writer: { output: 'stderr' } } } },
    storage: { module: 'file_system', root: files.data },
    apps: {
      tls: { certificates: { load_files: [{ certificate: files.cert, key: files.key, tags: [tag] }] } },
      http: {
        servers: Object.fromEntries(servers.map(s => [s.name, {
          listen: [`${s.host.includes(':') ? `[${s.host}]` : s.host}:${s.port}`],
          protocols: s.protocols,
          automatic_https: { disable: true },
          ...(s.idleTimeoutS ? { idle_timeout: `${s.idleTimeoutS}s` } : {}),
          // Our one certificate whatever the SNI (none, for an IP address).
          tls_connection_policies: [{ certificate_selection: { any_tag: [tag] } }],
          routes: [{
            // `handle`: Caddy handlers of the server's own in place of the proxy (the link's cross traffic serves a file: harness/cross-traffic/quic.js).
            handle: s.handle || [{
              handler: 'reverse_proxy',
              flush_interval: -1,
              upstreams: [{ dial: s.upstream }],
              // Caddy closes an idle upstream connection before the app does
              // (its keepAliveTimeout is longer), so a request never races a
              // close (a 502); keeps as many as a batch used, and opens no
              // more than the app can take at once.
              transport: {
                protocol: 'http',
                max_conns_per_host: EDGE_UPSTREAM_CONNS,
                keep_alive: { idle_timeout: `${UPSTREAM_IDLE_S}s`, max_idle_conns_per_host: EDGE_UPSTREAM_CONNS }
              },
              headers: { request: { set: { [EDGE_PROTOCOL_HEADER]: ['{http.request.proto}'], [EDGE_CLIENT_HEADER]: ['{http.request.remote}'] } } }
            }]
          }]
        }]))
      }
    }
  }
}

// What the edge spoke, from Caddy's {http.request.proto} ("HTTP/3.0",
// "HTTP/2.0", "HTTP/1.1"), in ALPN's words; null when absent or unknown.
function edgeProtocol (header) {
  const m = /^HTTP\/(\d)(?:\.(\d))?$/.exec(String(header || '').trim())
  if (!m) return null
  if (m[1] === '3') return 'h3'
  if (m[1] === '2') return 'h2'
  return `http/${m[1]}.${m[2] || 0}`
}

// A port free for TCP and UDP on `host` (Caddy's h3 servers take both):
// asked of the kernel, then handed to Caddy, which cannot report a port of
// its own choosing.
async function freePort (host) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await new Promise((resolve, reject) => {
      const s = net.createServer()
      s.once('error', reject)
      s.listen(0, host, () => { const p = s.address().port; s.close(() => resolve(p)) })
    })
    const udpFree = await new Promise(resolve => {
      const u = dgram.createSocket(host.includes(':') ? 'udp6' : 'udp4')
      u.once('error', () => { u.close(); resolve(false) })
      u.bind(port, host, () => u.close(() => resolve(true)))
    })
    if (udpFree) return port
  }
  throw new EdgeError(`found no port free for both TCP and UDP on ${host}`)
}

// Starts Caddy with `servers` (see caddyConfig; port 0: any free port) and
// the certificate tls = { key, cert }. Resolves once Caddy serves, with
// { pid, ports: { name: port }, version, close() }; rejects with Caddy's own
// error line when it refuses the config or a port. Caddy dies with this
// process (parent-death signal, where setpriv exists). qlogDir: a folder
// where quic-go writes one qlog per QUIC connection (QLOGDIR), for traces.
async function startCaddy (servers, tls, { spawnWith = spawn, qlogDir = null } = {}) {
  const executable = findCaddy()
  if (!executable) throw new EdgeError(edgeUnavailableReason())
  const dir = makeTempFolder('h2bench-caddy-') // the folders of Caddys whose process is gone swept first
  const files = { cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem'), data: path.join(dir, 'data'), config: path.join(dir, 'caddy.json') }
  fs.writeFileSync(files.key, tls.key, { mode: 0o600 })
  fs.writeFileSync(files.cert, tls.cert)
  const resolved = []
  for (const s of servers) resolved.push({ ...s, port: s.port || await freePort(s.host) })
  fs.writeFileSync(files.config, JSON.stringify(caddyConfig(resolved, files), null, 2))
  const args = ['run', '--config', files.config, '--adapter', '']
  const hasSetpriv = process.platform === 'linux' && spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0
  const [cmd, argv] = hasSetpriv ? ['setpriv', ['--pdeathsig', 'KILL', '--', executable, ...args]] : [executable, args]
  // Caddy keeps autosave.json and locks under XDG folders: ours, not $HOME's.
  const env = { ...process.env, XDG_DATA_HOME: path.join(dir, 'xdg'), XDG_CONFIG_HOME: path.join(dir, 'xdg'), HOME: dir }
  if (qlogDir) env.QLOGDIR = qlogDir
  const child = spawnWith(cmd, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] })
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true })
  let lastError = ''
  let exited = null
  const exitedPromise = new Promise(resolve => child.once('exit', (code, signal) => { exited = { code, signal }; resolve(exited) }))
  await new Promise((resolve, reject) => {
    let buffered = ''
    let settled = false
    const timer = setTimeout(() => fail(`Caddy did not start serving within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS)
    const fail = why => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      child.kill('SIGKILL')
      cleanup()
      reject(new EdgeError(why))
    }
    child.once('error', err => fail(`could not start ${executable}: ${err.message}`))
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', chunk => {
      buffered += chunk
      let nl
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl)
        buffered = buffered.slice(nl + 1)
        let entry = null
        try {
          entry = JSON.parse(line)
        } catch {
          // a plain line ("Error: …"), kept as it is below
        }
        debug('%s', line)
        if (entry && (entry.level === 'error' || entry.level === 'fatal')) lastError = entry.error || entry.msg
        else if (!entry && line.trim()) lastError = line.trim() // Caddy's plain "Error: …" before exiting
        if (entry && entry.msg === READY && !settled) {
          settled = true
          clearTimeout(timer)
          resolve()
        }
      }
    })
    exitedPromise.then(({ code, signal }) => fail(`Caddy exited (${signal || `code ${code}`}) before serving: ${lastError || 'no reason given'}`))
  })
  let closing = null
  const version = caddyVersion(executable)
  return {
    pid: child.pid,
    executable,
    version,
    warning: caddyWarning(version),
    ports: Object.fromEntries(resolved.map(s => [s.name, s.port])),
    close () {
      if (!closing) {
        closing = exited ? Promise.resolve() : exitedPromise.then(() => {})
        if (!exited) {
          child.kill('SIGTERM')
          setTimeout(() => { if (!exited) child.kill('SIGKILL') }, 3000).unref()
        }
        closing = closing.then(cleanup)
      }
      return closing
    }
  }
}

module.exports = {
  startCaddy,
  caddyConfig,
  caddyVersion,
  caddyWarning,
  edgeProtocol,
  edgeUnavailableReason,
  findCaddy,
  freePort,
  EdgeError,
  EDGE_PROTOCOL_HEADER,
  EDGE_CLIENT_HEADER,
  EDGE_UPSTREAM_CONNS,
  EDGE_APP_BACKLOG,
  INSTALL_HINT
}
