'use strict'

// Writes a whole response body as one buffer. spdy resets multi-chunk
// responses intermittently in Chromium on Node >= 15 (node-spdy#380), so the
// body is handed over in a single end().
function sendBody (res, body) {
  res.end(body)
}

module.exports = { sendBody }
