'use strict'

const http2 = require('node:http2')
const express = require('express')

// Express 4 cannot serve node:http2's compatibility API as it is: its init
// middleware sets every request's prototype to app.request, whose chain ends
// in http.IncomingMessage, so the Http2ServerRequest/Response getters vanish
// and the first stream access crashes ("Cannot read properties of undefined
// (reading 'readable')", expressjs/express#3388). This adapter points one
// app's request and response prototypes at Express's methods layered over the
// http2 classes instead. It changes only the app it is given, unlike
// http2-express-bridge, which patches Express's shared prototypes.

function layer (base, expressProto, app) {
  const proto = Object.create(base)
  for (const key of Object.getOwnPropertyNames(expressProto)) {
    Object.defineProperty(proto, key, Object.getOwnPropertyDescriptor(expressProto, key))
  }
  Object.defineProperty(proto, 'app', { configurable: true, enumerable: true, writable: true, value: app })
  return proto
}

const requestOverHttp2 = layer(http2.Http2ServerRequest.prototype, express.request, null)
// HTTP/2 has :authority where HTTP/1.1 has Host; Express reads Host, through
// req.get('host') and in req.hostname.
const expressGet = express.request.get
requestOverHttp2.get = requestOverHttp2.header = function get (name) {
  if (typeof name === 'string' && name.toLowerCase() === 'host') return this.headers.host || this.authority
  return expressGet.call(this, name)
}
Object.defineProperty(requestOverHttp2, 'hostname', {
  configurable: true,
  enumerable: true,
  get () {
    const host = this.get('host') || ''
    return host.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1') || undefined
  }
})
const responseOverHttp2 = layer(http2.Http2ServerResponse.prototype, express.response, null)

// Makes `app` servable by http2.createSecureServer; returns it.
function expressOnHttp2 (app) {
  app.request = Object.create(requestOverHttp2, { app: { configurable: true, enumerable: true, writable: true, value: app } })
  app.response = Object.create(responseOverHttp2, { app: { configurable: true, enumerable: true, writable: true, value: app } })
  return app
}

module.exports = { expressOnHttp2 }
