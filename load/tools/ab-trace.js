'use strict'

// ab's trace parser for `h2bench load --trace` (load/trace.js): what went
// over the wire on an h1 lane, read from `ab -v 2 -n N -c C URL`'s stdout
// and stderr, every TLS handshake. Beside ab's adapter (load/tools/ab.js),
// which runs it with -v 2 for the trace.
const { TraceError, fail } = require('../trace')

// `ab -v 2 -n N -c C https://…` → { tool, protocol, connections,
// tlsHandshakes, requests, failed, requestsPerConnection, keepAliveRequests,
// unusedConnections }. With -v 2 ab prints, for every TLS handshake, an
// "SSL-Session:" block on stderr and a "Peer certificate" block on stdout;
// either stream (or both, concatenated) will do. ab has no connection reuse
// beyond -k's keep-alive, so connections = TLS handshakes. Without -k ab
// opens one connection per request, and a few more near the end it then
// closes unused (a new connection starts whenever one closes and not all
// requests are written yet): unusedConnections = connections - requests.
// completed: the number of requests done, when the caller knows it; else
// ab's own "Complete requests:" line.
function summariseAb (text, { completed } = {}) {
  if (typeof text !== 'string') throw new TraceError('ab: no output given (expected the stdout and stderr of `ab -v 2`)')
  const sessions = (text.match(/^SSL-Session:/gm) || []).length
  const certificates = (text.match(/^Peer certificate\s*$/gm) || []).length
  const complete = /^Complete requests:\s+(\d+)/m.exec(text)
  const failed = /^Failed requests:\s+(\d+)/m.exec(text)
  const keepAlive = /^Keep-Alive requests:\s+(\d+)/m.exec(text)
  const requests = completed != null ? Number(completed) : complete ? Number(complete[1]) : null
  if (requests == null) {
    const what = /ApacheBench/.test(text)
      ? 'no "Complete requests:" line: the run did not finish, and no completed count was given'
      : 'not ApacheBench output (no "This is ApacheBench" banner, no "Complete requests:" line)'
    throw fail('ab', what, text)
  }
  const handshakes = Math.max(sessions, certificates)
  if (!handshakes) {
    throw fail('ab', 'no TLS handshake printed (no "SSL-Session:" or "Peer certificate" block): run it with -v 2 or more, against an https URL, and pass its stderr too', text)
  }
  const keepAliveRequests = keepAlive ? Number(keepAlive[1]) : null
  return {
    tool: 'ab',
    protocol: 'http/1.1',
    connections: handshakes,
    tlsHandshakes: handshakes,
    requests,
    failed: failed ? Number(failed[1]) : null,
    requestsPerConnection: requests / handshakes,
    keepAliveRequests,
    unusedConnections: keepAliveRequests ? null : Math.max(0, handshakes - requests)
  }
}

module.exports = { summariseAb }
