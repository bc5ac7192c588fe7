'use strict'

// A lane's JSON routes (/lane, /lanes.json, /ledger/<id>), read by the tools
// that measure lanes they did not start (h2bench load, the runner's remote
// lanes: harness/remote-lanes.js).
const https = require('node:https')
const http2 = require('node:http2')

// GET <lane>/<path> as JSON, certificate unchecked (the lanes' is
// self-signed); over HTTP/2 when `h2` (the HTTP/2 lanes speak nothing else).
function getJson (laneUrl, pathname, { timeoutMs = 10000, h2 = false, token = null } = {}) {
  const auth = token ? { 'x-h2bench-token': token } : {} // lanes beyond loopback: their internals need it (server/access.js)
  const where = `${laneUrl.replace(/\/+$/, '')}${pathname}`
  return new Promise((resolve, reject) => {
    const done = (status, headers, body) => {
      try {
        resolve({ status, headers, json: JSON.parse(body) })
      } catch {
        reject(new Error(`${where}: status ${status}, not JSON`))
      }
    }
    if (h2) {
      const session = http2.connect(laneUrl, { rejectUnauthorized: false })
      const timer = setTimeout(() => session.destroy(new Error(`${where}: no answer within ${timeoutMs / 1000} s`)), timeoutMs)
      session.once('error', err => { clearTimeout(timer); reject(err) })
      const req = session.request({ ':path': pathname, ...auth })
      let body = ''
      let head = {}
      req.setEncoding('utf8')
      req.once('response', h => { head = h })
      req.on('data', d => { body += d })
      req.once('end', () => { clearTimeout(timer); session.close(); done(head[':status'], head, body) })
      req.once('error', err => { clearTimeout(timer); session.destroy(); reject(err) })
      return
    }
    const req = https.get(where, { rejectUnauthorized: false, timeout: timeoutMs, headers: auth }, res => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', d => { body += d })
      res.on('end', () => done(res.statusCode, res.headers, body))
    })
    req.once('timeout', () => req.destroy(new Error(`${where}: no answer within ${timeoutMs / 1000} s`)))
    req.once('error', reject)
  })
}

module.exports = { getJson }
