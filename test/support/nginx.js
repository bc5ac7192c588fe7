'use strict'

const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { startForeground, HOST } = require('./foreground-server')

// Debian's nginx as a child of this process, for test/support/static-site.js:
// in the foreground, with its config, pid file, logs and temp folders in a
// folder of the caller's, on a free port of 127.0.0.1, serving a folder of
// static files over TLS with HTTP/1.1 and HTTP/2 (nginx 1.22's
// `listen … ssl http2`).

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
function nginxConfig ({ dir, port, root, cert, key, asRoot, extra = '' }) {
  const at = name => path.join(dir, name)
  return `# Written by test/support/nginx.js; removed with its folder.
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
${extra}  }
}
`
}

// Starts nginx in the foreground (master and one worker) on a free port
// (test/support/foreground-server.js). Resolves once it accepts connections;
// rejects with nginx's own last line. `extra`: more directives for the server
// block (a location's headers, say).
async function startNginx ({ dir, root, tls, executable, extra = '' }) {
  const version = nginxVersion(executable)
  fs.mkdirSync(dir, { recursive: true })
  const conf = path.join(dir, 'nginx.conf')
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const server = await startForeground('nginx', port => {
    fs.writeFileSync(conf, nginxConfig({ dir, port, root, asRoot, extra, ...tls }))
    // -e: the log before the config is read (Debian's is stderr anyway).
    return [executable, '-p', dir, '-c', conf, '-e', 'stderr', '-g', 'daemon off;']
  })
  return {
    ...server,
    url: `https://${HOST}:${server.port}/`,
    protocols: ['h1', 'h2'],
    version,
    path: executable,
    accessLog: path.join(dir, 'access.log')
  }
}

module.exports = { startNginx, findNginx, nginxConfig, NGINX_PACKAGE }
