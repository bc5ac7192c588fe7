'use strict'

// A site of several origins under one private CA, each origin with a leaf of its own, served by real
// third-party servers on this namespace's loopback (never another address): the pinned Caddy on 127.0.0.2,
// 127.0.0.3, … (HTTP/1.1, HTTP/2 and HTTP/3; one Caddy per origin, so each presents its own leaf), and, when
// asked, Debian's nginx on 127.0.0.1 (HTTP/1.1 and HTTP/2). A host per origin (not a port per origin of one
// host): Firefox's HTTP/3 mapping for a forced page (harness/force-protocol.js) maps a whole host.
//
// The page (/, on the first origin) loads from every other origin an image, a script and a fetch() (no-cors:
// a network or TLS failure rejects it, nothing else does), each marked in window.outcomes as it loads or fails;
// window.settled resolves once all have. With `stranger`, one more Caddy origin whose leaf is signed by another
// CA: a browser that trusts the site's CA (and not just every certificate) must refuse it.
// → { caFile, caPem, dir, pageUrl, origins: [{ url, host, server, spki, stranger }], strangerUrl, close() }.
const fs = require('node:fs')
const path = require('node:path')
const { startCaddy, findCaddy } = require('../../server/edge/caddy')
const { startNginx, findNginx, NGINX_PACKAGE } = require('./nginx')
const { makePrivateCa } = require('./private-ca')
const { makeTempFolder } = require('../../common/temp-folders')

const PIXEL = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex')
const RESOURCES = ['pixel.png', 's.js', 'data.txt']

// The page naming every origin of `others`: its markup (img, script) and one fetch() each.
function pageHtml (others) {
  const marked = (url, kind) => `onload="mark('${kind} ${url}', true)" onerror="mark('${kind} ${url}', false)"`
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>A site of one private CA</title><link rel="icon" href="data:,">
<script>
window.outcomes = {}
const waiting = []
const pending = {}
function mark (what, ok) { window.outcomes[what] = ok; if (pending[what]) pending[what]() }
function expect (what) { waiting.push(new Promise(resolve => { if (what in window.outcomes) resolve(); else pending[what] = resolve })) }
</script></head><body>
${others.map(o => `<img src="${o}/pixel.png" ${marked(`${o}/pixel.png`, 'img')}>
<script src="${o}/s.js" ${marked(`${o}/s.js`, 'script')}></script>`).join('\n')}
<script>
for (const o of ${JSON.stringify(others)}) {
  expect('img ' + o + '/pixel.png'); expect('script ' + o + '/s.js')
  const u = o + '/data.txt'
  waiting.push(fetch(u, { mode: 'no-cors', cache: 'no-store' }).then(() => mark('fetch ' + u, true), () => mark('fetch ' + u, false)))
}
window.settled = Promise.all(waiting).then(() => window.outcomes)
</script></body></html>
`
}

// `caddyOrigins`: how many Caddy origins (the page on the first); `nginx`: an nginx origin too; `stranger`: an
// origin of another CA; `idleTimeoutS`: Caddy's idle timeout (HTTP/3 too; oha's HTTP/3 client waits for the server
// to close the connection before it exits: load/tools/oha.js). A server that is not installed rejects with an Error
// carrying `missing: true`.
async function startCaSite ({ caddyOrigins = 3, nginx = false, stranger = false, idleTimeoutS = null } = {}) {
  if (!findCaddy()) throw Object.assign(new Error('no Caddy found: build the pinned one with `npm run build:caddy`'), { missing: true })
  const nginxPath = nginx ? findNginx() : null
  if (nginx && !nginxPath) throw Object.assign(new Error(`no nginx found: install Debian's ${NGINX_PACKAGE}`), { missing: true })
  const caddyHosts = Array.from({ length: caddyOrigins }, (_, i) => `127.0.0.${i + 2}`)
  const hosts = [...caddyHosts, ...(nginx ? ['127.0.0.1'] : [])]
  const ca = await makePrivateCa({ leaves: hosts.map(h => [h]) })
  const foreign = stranger ? await makePrivateCa({ leaves: [[`127.0.0.${caddyOrigins + 2}`]], name: 'a stranger CA' }) : null
  const dir = makeTempFolder('h2bench-ca-site-')
  const root = path.join(dir, 'site')
  fs.mkdirSync(root)
  const site = { caFile: path.join(dir, 'ca.pem'), caPem: ca.caPem, dir, origins: [], strangerUrl: null }
  fs.writeFileSync(site.caFile, ca.caPem)
  const running = []
  let closing = null
  site.close = () => {
    closing = closing || (async () => {
      await Promise.all(running.map(s => s.close().catch(() => {})))
      fs.rmSync(dir, { recursive: true, force: true })
    })()
    return closing
  }
  try {
    const serveCaddy = async (host, leaf) => {
      const caddy = await startCaddy([{ name: 'site', host, port: 0, protocols: ['h1', 'h2', 'h3'], idleTimeoutS, handle: [{ handler: 'file_server', root }] }], { key: leaf.key, cert: leaf.cert })
      running.push(caddy)
      return `https://${host}:${caddy.ports.site}`
    }
    for (const [i, host] of caddyHosts.entries()) {
      site.origins.push({ url: await serveCaddy(host, ca.leaves[i]), host, server: 'caddy', spki: ca.leaves[i].spki, stranger: false })
    }
    if (nginx) {
      const leaf = ca.leaves[caddyOrigins]
      const tls = { cert: path.join(dir, 'nginx-cert.pem'), key: path.join(dir, 'nginx-key.pem') }
      fs.writeFileSync(tls.cert, leaf.cert)
      fs.writeFileSync(tls.key, leaf.key, { mode: 0o600 })
      const server = await startNginx({ dir: path.join(dir, 'nginx'), root, tls, executable: nginxPath })
      running.push(server)
      site.origins.push({ url: `https://127.0.0.1:${server.port}`, host: '127.0.0.1', server: 'nginx', spki: leaf.spki, stranger: false })
      site.nginx = server
    }
    if (foreign) {
      site.strangerUrl = await serveCaddy(foreign.leaves[0].names[0], foreign.leaves[0])
      site.origins.push({ url: site.strangerUrl, host: foreign.leaves[0].names[0], server: 'caddy', spki: foreign.leaves[0].spki, stranger: true })
    }
    site.pageUrl = `${site.origins[0].url}/`
    fs.writeFileSync(path.join(root, 'index.html'), pageHtml(site.origins.slice(1).map(o => o.url)))
    fs.writeFileSync(path.join(root, 'pixel.png'), PIXEL)
    fs.writeFileSync(path.join(root, 's.js'), 'window.scripts = (window.scripts || 0) + 1\n')
    fs.writeFileSync(path.join(root, 'data.txt'), 'data\n')
  } catch (err) {
    await site.close()
    throw err
  }
  // The page's subresources by origin (the page's own origin has only the page).
  site.requestsPerOrigin = RESOURCES.length
  return site
}

module.exports = { startCaSite, RESOURCES }
