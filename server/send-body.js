'use strict'

// How every lane hands a response body (always a view of the shared
// payload block, or a small rendered page) to its server.

const CHUNK = 256 * 1024

// The body in CHUNK-sized views, each written only when the previous one has
// drained. A single res.end(16 MiB) on a TLS socket encrypts all of it at
// once, so 200 such responses held 3.2 GiB; paced, each holds about a chunk.
// The bytes on the wire are the same (Content-Length is set by the route).
function sendPaced (res, body) {
  if (body.length <= CHUNK) return res.end(body)
  let offset = 0
  const stop = () => res.off('drain', pump)
  function pump () {
    while (offset < body.length) {
      const chunk = body.subarray(offset, Math.min(offset + CHUNK, body.length))
      offset += chunk.length
      if (offset === body.length) {
        stop()
        res.off('close', stop)
        res.end(chunk)
        return
      }
      if (!res.write(chunk)) return // 'drain' calls pump again
    }
  }
  res.on('drain', pump)
  res.once('close', stop)
  pump()
}

module.exports = { sendPaced, CHUNK }
