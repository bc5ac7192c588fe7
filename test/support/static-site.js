'use strict'

const fs = require('node:fs')
const path = require('node:path')
const { generateCertificate, spkiHash } = require('../../server/certs')
const { startCaddy, findCaddy } = require('../../server/edge/caddy')
const { ensureCaddy } = require('../../tools/caddy/build')
const { SITE, siteBody, writeSite } = require('./site-content')
const { startNginx, findNginx, NGINX_PACKAGE } = require('./nginx')
const { makeTempFolder } = require('../../common/temp-folders')

// "Any HTTPS site", measured per protocol without ever leaving loopback: one
// plain static site, generated here byte for byte the same on every run,
// served by two real third-party servers on 127.0.0.1 of this process's
// network namespace: Debian's nginx (HTTP/1.1 and HTTP/2 over TLS) and the
// pinned Caddy that h2bench builds (HTTP/1.1, HTTP/2 and HTTP/3), both with a
// certificate from a CA of the fixture's own. Our own lanes are Node servers
// we wrote; a browser's numbers against these say what a site behind an
// ordinary server does.

const FOLDER_PREFIX = 'h2bench-site-'
const HOST = '127.0.0.1'

// Starts `servers` (any of 'nginx', 'caddy') serving SITE over HTTPS on
// 127.0.0.1, each on a port of its own, with a leaf for 127.0.0.1 and
// localhost signed by a CA made for this call. Resolves with
// { nginx?, caddy?, caFile, ca, spki, dir, root, SITE, close() }; a server
// that is not installed rejects with an Error carrying `missing: true` and a
// message naming what to install.
// `ips`: more addresses for the leaf (a test that reaches these servers by another address: runner-site's NAT);
// `names`: DNS names for the leaf (a test that reaches them by names of its own hosts file); `caddyPorts`: how many
// ports Caddy serves the site on (2: a third origin beside nginx's and Caddy's first; site.caddy.urls, .ports).
// site.writePage(name, html) adds a page to the root both serve (one naming the servers' ports, say).
async function startStaticSite ({ servers = ['nginx', 'caddy'], ips = [], names = [], caddyPorts = 1 } = {}) {
  const unknown = servers.filter(s => s !== 'nginx' && s !== 'caddy')
  if (unknown.length) throw new Error(`startStaticSite: unknown server ${unknown.join(', ')} (nginx, caddy)`)
  const nginxPath = servers.includes('nginx') ? findNginx() : null
  if (servers.includes('nginx') && !nginxPath) {
    throw Object.assign(new Error(`no nginx found (/usr/sbin/nginx, PATH or NGINX_PATH): install Debian's ${NGINX_PACKAGE} (\`apt-get install -y ${NGINX_PACKAGE}\`)`), { missing: true })
  }
  const caddyPath = servers.includes('caddy') ? findCaddy() : null
  if (servers.includes('caddy') && !caddyPath) {
    throw Object.assign(new Error('no Caddy found: build the pinned one with `npm run build:caddy`, or install Debian\'s caddy'), { missing: true })
  }

  const dir = makeTempFolder(FOLDER_PREFIX)
  const root = path.join(dir, 'site')
  const tlsDir = path.join(dir, 'tls')
  const files = { cert: path.join(tlsDir, 'cert.pem'), key: path.join(tlsDir, 'key.pem'), ca: path.join(tlsDir, 'ca.pem') }
  const site = { caFile: files.ca, ca: null, spki: null, dir, root, SITE }
  let closing = null
  // Should the process exit without close(): nginx's master and worker
  // killed (Caddy dies with its parent), the folder and its key removed.
  const onExit = () => {
    if (site.nginx) site.nginx.kill()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', onExit)
  site.close = () => {
    if (!closing) {
      closing = (async () => {
        await Promise.all([site.nginx && site.nginx.close(), site.caddy && site.caddy.close()])
        fs.rmSync(dir, { recursive: true, force: true })
        process.removeListener('exit', onExit)
      })()
    }
    return closing
  }

  site.writePage = (name, html) => fs.writeFileSync(path.join(root, name), html)
  try {
    fs.mkdirSync(root)
    writeSite(root)
    // A CA made for this call, its key dropped once it signed the leaf (server/certs.js).
    const made = await generateCertificate({ ips, names })
    fs.mkdirSync(tlsDir)
    fs.writeFileSync(files.key, made.key, { mode: 0o600 })
    fs.writeFileSync(files.cert, made.cert) // the leaf, then the CA
    fs.writeFileSync(files.ca, made.ca)
    site.ca = made.ca
    site.spki = spkiHash(made.cert)
    if (nginxPath) {
      site.nginx = await startNginx({ dir: path.join(dir, 'nginx'), root, tls: { cert: files.cert, key: files.key }, executable: nginxPath })
    }
    if (caddyPath) {
      // startCaddy (the edge lanes' launcher) writes its JSON config, HOME
      // and XDG folders into a throw-away folder of its own, removed by its
      // close(): no admin endpoint, no automatic HTTPS, our certificate.
      const sites = Array.from({ length: caddyPorts }, (_, i) => ({
        name: i ? `site${i + 1}` : 'site', host: HOST, port: 0, protocols: ['h1', 'h2', 'h3'], handle: [{ handler: 'file_server', root }]
      }))
      const caddy = await startCaddy(sites, { key: made.key, cert: made.cert })
      const ports = sites.map(x => caddy.ports[x.name])
      site.caddy = {
        url: `https://${HOST}:${ports[0]}/`,
        port: ports[0],
        urls: ports.map(p => `https://${HOST}:${p}/`),
        ports,
        protocols: ['h1', 'h2', 'h3'],
        pid: caddy.pid,
        version: caddy.version,
        path: caddy.executable,
        // false: CADDY_PATH or a system Caddy (Debian's 2.6.2) stood in for tools/caddy's build.
        pinned: caddy.executable === ensureCaddy.binaryPath(),
        close: () => caddy.close()
      }
    }
  } catch (err) {
    await site.close()
    throw err
  }
  return site
}

module.exports = { startStaticSite, SITE, siteBody }
