'use strict'

// A site as a new user would bring one: four origins on three third-party
// servers that the test starts, each origin with its own leaf from one CA made
// for the fixture (its key dropped once the leaves are signed), the servers'
// own Last-Modified and ETag on every static file and cache headers as real
// sites send them, and one response that takes its server 250 ms of real think
// time (a CGI script that sleeps). Issue 42's replay fidelity test
// (test/bench/slow/replay-fidelity-link.test.js) loads it live and replayed.
//   a  Debian's nginx (HTTP/1.1, HTTP/2): the page (Cache-Control: no-cache, so
//      a repeat view revalidates it: a 304), its stylesheet and script
//      (max-age=60) and 10 thumbnails of 9 KB (no Cache-Control, Last-Modified
//      30 days ago: heuristic freshness, 3 days);
//   b  Debian's lighttpd (HTTP/1.1, HTTP/2 by server.h2proto): 10 thumbnails
//      (no Cache-Control, Last-Modified 10 minutes before the fixture started:
//      heuristic freshness of a minute and more) and /cgi-bin/slow.cgi (mod_cgi:
//      sh sleeps 0.25 s, then answers a script with no validators and no
//      freshness, so every load fetches it again);
//   c  Debian's Apache 2.4 (mpm_event, mod_ssl, mod_http2), a name-based
//      virtual host: the hero image (max-age=3600, the page's LCP) and 9 logos
//      (Cache-Control: no-cache: a 304 in every repeat view);
//   d  the same Apache on the same port, another virtual host (its own leaf,
//      chosen by SNI): 9 thumbnails with mod_expires' max-age=120 and Expires.
// The short freshness of a's stylesheet and script, b's thumbnails and d's is
// what a replay sending the recorded Date would lose: stale a minute or two
// after the recording. A repeat view soon after a cold load takes 32 of the 43 responses from the
// browser's cache and revalidates 10 (the page and c's logos: 304s); the CGI's
// answer comes anew. Each server runs as a child of this process in the
// foreground (test/support/foreground-server.js: on 127.0.0.1, a free port of
// its own, killed with this process however it ends), its config, logs, pid
// and lock files in the fixture's temp folder; nothing is written outside it,
// nothing listens on port 80, no system service is involved.
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { makePrivateCa } = require('./private-ca')
const { siteBody, png, prng } = require('./site-content')
const { startNginx, findNginx, NGINX_PACKAGE } = require('./nginx')
const { startForeground, HOST } = require('./foreground-server')
const { makeTempFolder } = require('../../common/temp-folders')

const FOLDER_PREFIX = 'h2bench-third-party-site-'
const LIGHTTPD_PACKAGE = 'lighttpd'
const LIGHTTPD_TLS_PACKAGE = 'lighttpd-mod-openssl'
const APACHE_PACKAGE = 'apache2-bin'
// lighttpd speaks HTTP/2 from 1.4.56 (server.h2proto; on by default from 1.4.59).
const LIGHTTPD_H2_SINCE = [1, 4, 56]
const APACHE_MODULES = ['mpm_event', 'authz_core', 'mime', 'headers', 'expires', 'ssl', 'socache_shmcb', 'http2']
const APACHE_MODULE_DIRS = ['/usr/lib/apache2/modules', '/usr/lib64/httpd/modules', '/usr/lib/httpd/modules']
const LIGHTTPD_MODULES = ['openssl', 'cgi', 'accesslog']
const LIGHTTPD_MODULE_DIRS = ['/usr/lib/lighttpd', '/usr/lib64/lighttpd', '/usr/local/lib/lighttpd']
// The CGI's think time: a real server sleeping, not ours.
const SLOW_MS = 250
const PAGE_PATH = '/page.html'
const SLOW_PATH = '/cgi-bin/slow.cgi'
const DAY_MS = 86400 * 1000
const CA_NAME = 'h2bench test CA (third-party site)'

// An executable: `envName`'s path, else the first of `files` (absolute) or of `name` on the PATH; null when none.
function findExecutable (envName, files, name, env = process.env) {
  if (env[envName]) return fs.existsSync(env[envName]) ? env[envName] : null
  for (const file of [...files, ...(env.PATH || '').split(path.delimiter).filter(Boolean).map(dir => path.join(dir, name))]) {
    try {
      fs.accessSync(file, fs.constants.X_OK)
      return file
    } catch {
      // not here: the next one
    }
  }
  return null
}

const findLighttpd = env => findExecutable('LIGHTTPD_PATH', ['/usr/sbin/lighttpd'], 'lighttpd', env)
const findApache = env => findExecutable('APACHE_PATH', ['/usr/sbin/apache2', '/usr/sbin/httpd'], 'apache2', env)

// "1.4.69" from `lighttpd -v`, "2.4.71" from `apache2 -v`, or null.
function versionOf (executable, pattern) {
  const out = spawnSync(executable, ['-v'], { encoding: 'utf8', timeout: 5000 })
  const m = pattern.exec(`${out.stdout}${out.stderr}`)
  return m ? m[1] : null
}
const atLeast = (version, want) => {
  const have = version.split('.').map(Number)
  for (let i = 0; i < want.length; i++) if ((have[i] || 0) !== want[i]) return (have[i] || 0) > want[i]
  return true
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0
// Whether `id` is mapped in this user namespace (/proc/self/uid_map or gid_map lines: inside, outside, count).
function mapped (file, id) {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').some(line => {
      const [inside, , count] = line.trim().split(/\s+/).map(Number)
      return id >= inside && id < inside + count
    })
  } catch {
    return true // no user namespaces here: every id is the machine's
  }
}
// Apache refuses to serve as root (unixd: "Apache has not been designed to serve pages while running as root"):
// started as root, its children switch to nobody (65534), which must exist in this user namespace.
const APACHE_UID = 65534
function apacheChildUser () {
  if (!isRoot()) return { user: null, why: null } // not root: its children stay this user
  if (mapped('/proc/self/uid_map', APACHE_UID) && mapped('/proc/self/gid_map', APACHE_UID)) return { user: `#${APACHE_UID}`, why: null }
  return {
    user: null,
    why: `Apache started as root must switch its children to a user other than root (it refuses to serve as root), and uid ${APACHE_UID} is not mapped in this user namespace (root of one that maps only itself: test/run.js without root)`
  }
}

// The Apache modules folder holding every one of APACHE_MODULES, or an Error (missing: true) naming what lacks.
function apacheModules () {
  const dir = APACHE_MODULE_DIRS.find(d => fs.existsSync(path.join(d, 'mod_ssl.so')))
  const lacking = dir ? APACHE_MODULES.filter(m => !fs.existsSync(path.join(dir, `mod_${m}.so`))) : APACHE_MODULES
  if (lacking.length) return Object.assign(new Error(`Apache lacks ${lacking.map(m => `mod_${m}`).join(', ')} (looked in ${APACHE_MODULE_DIRS.join(', ')}): install Debian's ${APACHE_PACKAGE}`), { missing: true })
  return dir
}

// Why this fixture cannot run here (a server missing, or Apache unable to drop root), or null. The servers'
// executables → { nginx, lighttpd, apache, modules } when it can (`found` gets them).
function thirdPartySiteUnavailableReason (found = {}) {
  found.nginx = findNginx()
  if (!found.nginx) return `no nginx found (/usr/sbin/nginx, PATH or NGINX_PATH): install Debian's ${NGINX_PACKAGE}`
  found.lighttpd = findLighttpd()
  if (!found.lighttpd) return `no lighttpd found (/usr/sbin/lighttpd, PATH or LIGHTTPD_PATH): install Debian's ${LIGHTTPD_PACKAGE}`
  const lv = versionOf(found.lighttpd, /lighttpd\/(\d+\.\d+\.\d+)/)
  if (!lv || !atLeast(lv, LIGHTTPD_H2_SINCE)) return `lighttpd ${lv || '(version unknown)'} has no HTTP/2 (from ${LIGHTTPD_H2_SINCE.join('.')})`
  const lighttpdModules = LIGHTTPD_MODULE_DIRS.find(d => LIGHTTPD_MODULES.every(m => fs.existsSync(path.join(d, `mod_${m}.so`))))
  if (!lighttpdModules) return `lighttpd lacks mod_openssl or mod_cgi (looked in ${LIGHTTPD_MODULE_DIRS.join(', ')}): install Debian's ${LIGHTTPD_TLS_PACKAGE}`
  found.apache = findApache()
  if (!found.apache) return `no Apache found (/usr/sbin/apache2, PATH or APACHE_PATH): install Debian's ${APACHE_PACKAGE}`
  const modules = apacheModules()
  if (modules instanceof Error) return modules.message
  found.modules = modules
  return apacheChildUser().why
}

// A thumbnail: 64 × 48 RGB, gradients and noise, about 9 KB (stored deflate: its size the same on every Node).
// Small, so that a load through the link is bound by its round trips and the 250 ms response, not by slow start.
function thumbPng () {
  const W = 64
  const H = 48
  const rnd = prng(4242)
  return png(W, H, { bitDepth: 8, colorType: 2 }, y => {
    const bytes = Buffer.alloc(W * 3)
    for (let x = 0; x < W; x++) {
      const n = Math.floor(rnd() * 32)
      bytes[3 * x] = Math.min(255, 40 + 3 * x + n)
      bytes[3 * x + 1] = Math.min(255, 90 + 2 * y + n)
      bytes[3 * x + 2] = Math.min(255, 200 - x + n)
    }
    return bytes
  })
}

const imgs = (origin, file, tag, n, size) => Array.from({ length: n }, (_, i) => `<img src="${origin}/${file}?${tag}=${i}" ${size} alt="">`).join('\n')

// The page on a (nginx), naming every origin: 42 resources.
function pageHtml ({ a, b, c, d }) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Four origins on three servers</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="${a}/style.css">
<script src="${a}/app.js" defer></script>
<script src="${b}${SLOW_PATH}" defer></script>
</head>
<body><p id="status">The script has not run.</p>
<img src="${c}/hero.png" width="480" height="320" alt="">
${imgs(a, 'photo.png', 'a', 10, 'width="64" height="48"')}
${imgs(b, 'photo.png', 'b', 10, 'width="64" height="48"')}
${imgs(c, 'logo.svg', 'c', 9, 'width="32" height="32"')}
${imgs(d, 'photo.png', 'd', 9, 'width="64" height="48"')}
</body></html>
`
}

// What a browser asks of each origin for the page, cold, and what a repeat view soon after takes from its cache.
const EXPECTED = {
  requests: { a: 13, b: 11, c: 10, d: 9 }, // a: the page, style.css, app.js, 10 thumbnails; b: 10 thumbnails and the CGI
  fromCacheRepeat: 32, // a's stylesheet, script and thumbnails, b's thumbnails, c's hero, d's thumbnails
  revalidatedRepeat: 10 // the page and c's 9 logos: 304s
}

const SLOW_CGI = `#!/bin/sh
# Think time of a real application: ${SLOW_MS} ms, then a script with no validators and no freshness.
sleep ${SLOW_MS / 1000}
printf 'Content-Type: application/javascript\\r\\n\\r\\n'
printf '/* answered after ${SLOW_MS} ms of think time */\\ndocument.documentElement.setAttribute("data-slow", "${SLOW_MS}");\\n'
`

function lighttpdConfig ({ dir, port, root, cert, key }) {
  const at = name => path.join(dir, name)
  return `# Written by test/support/third-party-site.js; removed with its folder.
server.modules = ( "mod_openssl", "mod_cgi", "mod_accesslog" )
server.document-root = "${root}"
server.bind = "${HOST}"
server.port = ${port}
server.errorlog = "${at('error.log')}"
server.upload-dirs = ( "${dir}" )
accesslog.filename = "${at('access.log')}"
accesslog.format = "%H %m %U%q %>s %b"
server.feature-flags += ( "server.h2proto" => "enable" )
ssl.engine = "enable"
ssl.pemfile = "${cert}"
ssl.privkey = "${key}"
mimetype.assign = ( ".html" => "text/html", ".css" => "text/css", ".js" => "application/javascript", ".png" => "image/png", ".svg" => "image/svg+xml" )
$HTTP["url"] =~ "^/cgi-bin/" { cgi.assign = ( ".cgi" => "" ) }
`
}

// Apache with everything in `dir`: no /etc/apache2, no APACHE_* environment; two name-based virtual hosts on
// one port, each its own leaf (SNI). `user`: the children's (started as root), or null.
function apacheConfig ({ dir, port, modules, user, hosts }) {
  const at = name => path.join(dir, name)
  const vhost = ({ name, root, cert, key, headers }) => `<VirtualHost ${HOST}:${port}>
  ServerName ${name}
  DocumentRoot "${root}"
  SSLEngine on
  SSLCertificateFile "${cert}"
  SSLCertificateKeyFile "${key}"
  <Directory "${root}">
    Require all granted
  </Directory>
${headers}
</VirtualHost>
`
  return `# Written by test/support/third-party-site.js; removed with its folder.
ServerRoot "${dir}"
DefaultRuntimeDir "${at('run')}"
PidFile "${at('run/httpd.pid')}"
Mutex pthread default
ErrorLog "${at('error.log')}"
LogLevel warn
ServerName localhost
${APACHE_MODULES.map(m => `LoadModule ${m}_module ${path.join(modules, `mod_${m}.so`)}`).join('\n')}
${user ? `User ${user}\nGroup ${user}\n` : ''}Listen ${HOST}:${port}
StartServers 1
ServerLimit 1
ThreadsPerChild 64
MinSpareThreads 1
MaxSpareThreads 64
MaxRequestWorkers 64
Protocols h2 http/1.1
SSLSessionCache "shmcb:${at('run/ssl_scache')}(512000)"
TypesConfig /dev/null
AddType text/html .html
AddType image/png .png
AddType image/svg+xml .svg
LogFormat "%H %m %U%q %>s %B" site
CustomLog "${at('access.log')}" site
${hosts.map(vhost).join('')}`
}

// Starts the site: `names` [a, b, c, d] (DNS names: the test's hosts file sends them to the servers), `ips`: more
// addresses for every leaf, `leaves`: 'own' (each origin its own leaf) or 'shared' (one leaf naming all four).
// Resolves with { dir, caFile, ca, names, origins: { a, b, c, d } ('https://name:port'), page (the page's URL),
// pagePath, slowPath, slowMs, servers: { nginx, lighttpd, apache } ({ port, pid, version, … }), expected
// (EXPECTED), close() }. Rejects with an Error carrying `missing: true` when a server cannot run here
// (thirdPartySiteUnavailableReason).
async function startThirdPartySite ({ names, ips = [], leaves = 'own' }) {
  if (!Array.isArray(names) || names.length !== 4) throw new TypeError('startThirdPartySite: names [a, b, c, d]')
  if (leaves !== 'own' && leaves !== 'shared') throw new TypeError(`startThirdPartySite: leaves 'own' or 'shared', not ${leaves}`)
  const found = {}
  const why = thirdPartySiteUnavailableReason(found)
  if (why) throw Object.assign(new Error(why), { missing: true })
  const { user } = apacheChildUser()
  const t0 = Date.now()
  const dir = makeTempFolder(FOLDER_PREFIX)
  const site = { dir, names: [...names], pagePath: PAGE_PATH, slowPath: SLOW_PATH, slowMs: SLOW_MS, expected: EXPECTED, servers: {} }
  let closing = null
  const onExit = () => {
    for (const s of Object.values(site.servers)) s.kill()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', onExit)
  site.close = () => {
    if (!closing) {
      closing = (async () => {
        await Promise.all(Object.values(site.servers).map(s => s.close()))
        fs.rmSync(dir, { recursive: true, force: true })
        process.removeListener('exit', onExit)
      })()
    }
    return closing
  }
  try {
    const [a, b, c, d] = names
    // The certificates: tls/ (0700, the servers' masters read them as this user), ca.pem beside them.
    const tlsDir = path.join(dir, 'tls')
    fs.mkdirSync(tlsDir, { mode: 0o700 })
    const made = await makePrivateCa({ leaves: (leaves === 'own' ? names.map(n => [n]) : [names]).map(list => [...list, ...ips]), name: CA_NAME })
    const leafFiles = made.leaves.map((leaf, i) => {
      const files = { cert: path.join(tlsDir, `leaf${i + 1}.pem`), key: path.join(tlsDir, `leaf${i + 1}.key`) }
      fs.writeFileSync(files.key, leaf.key, { mode: 0o600 })
      fs.writeFileSync(files.cert, leaf.cert)
      return files
    })
    const tlsOf = name => leafFiles[leaves === 'own' ? names.indexOf(name) : 0]
    site.caFile = path.join(dir, 'ca.pem')
    fs.writeFileSync(site.caFile, made.caPem)
    site.ca = made.caPem

    // Each origin's files, their mtimes (so the servers' Last-Modified) set as the cache headers above need.
    const roots = Object.fromEntries(['a', 'b', 'c', 'd'].map(k => [k, path.join(dir, 'www', k)]))
    const write = (root, name, body, mtimeMs = null, mode = 0o644) => {
      const file = path.join(root, name)
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 })
      fs.writeFileSync(file, body, { mode })
      fs.chmodSync(file, mode)
      if (mtimeMs !== null) fs.utimesSync(file, new Date(mtimeMs), new Date(mtimeMs))
    }
    const longAgo = t0 - 30 * DAY_MS
    write(roots.a, 'style.css', siteBody('/style.css'), longAgo)
    write(roots.a, 'app.js', siteBody('/app.js'), longAgo)
    const thumb = thumbPng()
    write(roots.a, 'photo.png', thumb, longAgo)
    write(roots.b, 'photo.png', thumb, t0 - 10 * 60 * 1000)
    write(roots.b, SLOW_PATH.slice(1), SLOW_CGI, longAgo, 0o755)
    write(roots.c, 'hero.png', siteBody('/hero.png'), longAgo)
    write(roots.c, 'logo.svg', siteBody('/logo.svg'), longAgo)
    write(roots.d, 'photo.png', thumb, longAgo)
    if (user) {
      // Apache's children, another user, read c's and d's files: the folders above them may be passed through
      // (0711: not listed), the keys' folder stays 0700 (the master, root, reads the keys before it forks).
      fs.chmodSync(dir, 0o711)
      fs.chmodSync(path.join(dir, 'www'), 0o711)
    }

    site.servers.nginx = await startNginx({
      dir: path.join(dir, 'nginx'),
      root: roots.a,
      tls: tlsOf(a),
      executable: found.nginx,
      // TLS 1.3 as Debian's own nginx.conf turns it on (ssl_protocols … TLSv1.3): nginx 1.22's compiled-in default
      // stops at TLS 1.2, whose full handshake costs Firefox a round trip more than TLS 1.3's (Chromium's False
      // Start hides it), and the replay speaks TLS 1.3 whatever the recording met.
      extra: `    ssl_protocols TLSv1.2 TLSv1.3;
    location = ${PAGE_PATH} { add_header Cache-Control "no-cache"; }
    location ~ \\.(css|js)$ { add_header Cache-Control "max-age=60"; }
`
    })
    const lighttpdDir = path.join(dir, 'lighttpd')
    fs.mkdirSync(lighttpdDir)
    const lighttpd = await startForeground('lighttpd', port => {
      const conf = path.join(lighttpdDir, 'lighttpd.conf')
      fs.writeFileSync(conf, lighttpdConfig({ dir: lighttpdDir, port, root: roots.b, ...tlsOf(b) }))
      return [found.lighttpd, '-D', '-f', conf]
    }, { busy: /Address already in use|can't bind/ })
    site.servers.lighttpd = { ...lighttpd, version: versionOf(found.lighttpd, /lighttpd\/(\S+)/), path: found.lighttpd, accessLog: path.join(lighttpdDir, 'access.log'), protocols: ['h1', 'h2'] }
    const apacheDir = path.join(dir, 'apache')
    fs.mkdirSync(path.join(apacheDir, 'run'), { recursive: true })
    const apache = await startForeground('Apache', port => {
      const conf = path.join(apacheDir, 'httpd.conf')
      fs.writeFileSync(conf, apacheConfig({
        dir: apacheDir,
        port,
        modules: found.modules,
        user,
        hosts: [
          {
            name: c,
            root: roots.c,
            ...tlsOf(c),
            headers: '  Header set Cache-Control "no-cache"\n  <Files "hero.png">\n    Header set Cache-Control "max-age=3600"\n  </Files>'
          },
          { name: d, root: roots.d, ...tlsOf(d), headers: '  ExpiresActive On\n  ExpiresDefault "access plus 2 minutes"' }
        ]
      }))
      return [found.apache, '-f', conf, '-DFOREGROUND']
    }, { busy: /Address already in use|could not bind/ })
    site.servers.apache = { ...apache, version: versionOf(found.apache, /Apache\/(\S+)/), path: found.apache, accessLog: path.join(apacheDir, 'access.log'), protocols: ['h1', 'h2'] }

    const port = { a: site.servers.nginx.port, b: site.servers.lighttpd.port, c: site.servers.apache.port, d: site.servers.apache.port }
    site.origins = Object.fromEntries(['a', 'b', 'c', 'd'].map((k, i) => [k, `https://${names[i]}:${port[k]}`]))
    write(roots.a, PAGE_PATH.slice(1), pageHtml(site.origins))
    site.page = `${site.origins.a}${PAGE_PATH}`
  } catch (err) {
    await site.close()
    throw err
  }
  return site
}

module.exports = { startThirdPartySite, thirdPartySiteUnavailableReason, findLighttpd, findApache, lighttpdConfig, apacheConfig, SLOW_MS, EXPECTED }
