'use strict'

const fs = require('node:fs')
const net = require('node:net')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const { freePort } = require('../../server/edge/caddy')

// Debian's nginx as a child of this process, for test/support/static-site.js:
// in the foreground, with its config, pid file, logs and temp folders in a
// folder of the caller's, on a free port of 127.0.0.1, serving a folder of
// static files over TLS with HTTP/1.1 and HTTP/2 (nginx 1.22's
// `listen … ssl http2`).

const HOST = '127.0.0.1'
const START_TIMEOUT_MS = 15000
const STOP_GRACE_MS = 3000
// The Debian package that brings /usr/sbin/nginx (.ci/run installs it).
const NGINX_PACKAGE = 'nginx-light'

// The nginx to run: NGINX_PATH, else Debian's /usr/sbin/nginx, else one on the PATH; null when none.
function findNginx (env = process.env) {
  if (env.NGINX_PATH) return fs.existsSync(env.NGINX_PATH) ? env.NGINX_PATH : null
  for (const dir of ['/usr/sbin', ...(env.PATH || '').split(path.delimiter).filter(Boolean)]) {
    const file = path.join(dir, 'nginx')
    try {
      fs.accessSync(file, fs.constants.X_OK)
      return file
    } catch {
      // not here: the next folder
    }
  }
  return null
}

// "1.22.1" from `nginx -v` (which answers on stderr), or null.
function nginxVersion (executable) {
  const out = spawnSync(executable, ['-v'], { encoding: 'utf8', timeout: 5000 })
  const m = /nginx\/(\S+)/.exec(`${out.stderr}${out.stdout}`)
  return m ? m[1] : null
}

// Everything nginx would otherwise take from its compiled-in paths under /etc
// and /var (its temp folders it even creates at start) is named here, in
// `dir`. The types are inline so /etc/nginx/mime.types is not read either.
function nginxConfig ({ dir, port, root, cert, key, asRoot }) {
  const at = name => path.join(dir, name)
  return `# Written by test/support/static-site.js; removed with its folder.
${asRoot ? 'user root; # the workers read the site in a folder only root may enter\n' : ''}worker_processes 1;
pid ${at('nginx.pid')};
lock_file ${at('nginx.lock')};
error_log stderr warn;
events { worker_connections 512; }
http {
  types {
    text/html html;
    text/css css;
    application/javascript js;
    image/png png;
    image/svg+xml svg;
  }
  default_type application/octet-stream;
  log_format site '$server_protocol $request_method $request_uri $status $body_bytes_sent';
  access_log ${at('access.log')} site;
  client_body_temp_path ${at('client_body')};
  proxy_temp_path ${at('proxy')};
  fastcgi_temp_path ${at('fastcgi')};
  uwsgi_temp_path ${at('uwsgi')};
  scgi_temp_path ${at('scgi')};
  server {
    listen ${HOST}:${port} ssl http2;
    ssl_certificate ${cert};
    ssl_certificate_key ${key};
    root ${root};
    index index.html;
  }
}
`
}

// The pids whose parent is `pid` (nginx's workers), from /proc.
function childPids (pid) {
  const out = []
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(name))
    } catch {
      // gone meanwhile
    }
  }
  return out
}

function canConnect (port) {
  return new Promise(resolve => {
    const socket = net.connect(port, HOST)
    socket.once('connect', () => { socket.destroy(); resolve(true) })
    socket.once('error', () => resolve(false))
  })
}

const works = (cmd, args) => process.platform === 'linux' && spawnSync(cmd, args, { stdio: 'ignore' }).status === 0
let launcher = null
// How nginx is started so that nothing of it outlives this process, even
// killed with SIGKILL (no exit hook then): setpriv's parent-death signal
// kills the master, but nginx's worker does not watch its master and would
// live on; so the master runs as PID 1 of a PID namespace of its own
// (unshare --kill-child: killed when unshare is), and the kernel ends the
// worker with it. Without unshare or setpriv, the exit hook has to do.
function nginxLauncher () {
  if (!launcher) {
    const setpriv = works('setpriv', ['--version']) ? ['setpriv', '--pdeathsig', 'KILL', '--'] : []
    const unshare = works('unshare', ['--pid', '--fork', '--kill-child', 'true']) ? ['unshare', '--pid', '--fork', '--kill-child', '--'] : []
    launcher = [...setpriv, ...unshare]
  }
  return launcher
}

// Starts nginx in the foreground (master and one worker) on a free port.
// Resolves once it accepts connections; rejects with nginx's own last line.
async function startNginx ({ dir, root, tls, executable }) {
  const version = nginxVersion(executable)
  fs.mkdirSync(dir, { recursive: true })
  const conf = path.join(dir, 'nginx.conf')
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0
  let lastError = ''
  // The port is free when asked, then nginx binds it: another process may
  // take it in between, so a busy port is tried again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort(HOST)
    fs.writeFileSync(conf, nginxConfig({ dir, port, root, asRoot, ...tls }))
    // -e: the log before the config is read (Debian's is stderr anyway).
    const [cmd, ...argv] = [...nginxLauncher(), executable, '-p', dir, '-c', conf, '-e', 'stderr', '-g', 'daemon off;']
    const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    let exited = null
    const exitedPromise = new Promise(resolve => child.once('exit', (code, signal) => { exited = { code, signal }; resolve(exited) }))
    child.once('error', err => { stderr += `could not start ${executable}: ${err.message}\n` })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', d => { stderr += d })
    const t0 = Date.now()
    while (!exited && !(await canConnect(port))) {
      if (Date.now() - t0 > START_TIMEOUT_MS) {
        child.kill('SIGKILL')
        await exitedPromise
        break
      }
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    if (!exited) return nginxHandle({ child, exitedPromise, isExited: () => exited, port, version, executable, accessLog: path.join(dir, 'access.log') })
    lastError = stderr.trim().split('\n').pop() || (exited.signal ? `killed by ${exited.signal}` : `exit code ${exited.code}`)
    if (!/Address already in use/.test(stderr)) break
  }
  throw new Error(`nginx did not start: ${lastError}`)
}

function nginxHandle ({ child, exitedPromise, isExited, port, version, executable, accessLog }) {
  // The master: the child itself, or unshare's one child.
  const master = nginxLauncher().includes('unshare') ? childPids(child.pid)[0] || child.pid : child.pid
  let closing = null
  const handle = {
    url: `https://${HOST}:${port}/`,
    port,
    protocols: ['h1', 'h2'],
    pid: master,
    // Read while the master lives, so a pid is never one reused since.
    workers: () => isExited() ? [] : childPids(master),
    version,
    path: executable,
    accessLog,
    // SIGTERM: nginx's fast shutdown, the master waiting for its worker
    // before it exits; after STOP_GRACE_MS, SIGKILL for all.
    close () {
      if (!closing) {
        if (!isExited()) killAll([master], 'SIGTERM')
        const timer = setTimeout(() => handle.kill(), STOP_GRACE_MS)
        closing = exitedPromise.then(() => clearTimeout(timer))
      }
      return closing
    },
    // Synchronous, for process exit.
    kill () {
      if (!isExited()) killAll([...handle.workers(), master, child.pid])
    }
  }
  return handle
}

function killAll (pids, signal = 'SIGKILL') {
  for (const pid of pids) {
    try {
      process.kill(pid, signal)
    } catch {
      // already gone
    }
  }
}

module.exports = { startNginx, findNginx, nginxConfig, NGINX_PACKAGE }
