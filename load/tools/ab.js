'use strict'

// ApacheBench (`ab`, Debian apache2-utils): HTTP/1.1 only, one request in
// flight per connection, a new connection (and TLS handshake) per request
// unless -k: the source's idiom in seed 002 (`ab -n 100 -c 10`).
const { toolVersion, unreadable, result, toolConnections } = require('./common')

const HINT = 'on Debian/Ubuntu `sudo apt-get install -y apache2-utils`, on macOS it ships with the system (or `brew install httpd`)'

module.exports = {
  name: 'ab',
  protocols: ['http/1.1'],
  hint: HINT,
  version: () => toolVersion('ab', 'ab', ['-V'], HINT, out => (/Version ([\d.]+)/.exec(out) || [null, 'unknown'])[1]),
  // -v 2 prints each TLS session: the trace counts handshakes from it
  // (summariseAb, load/tools/ab-trace.js).
  command ({ url, requests, connections, timeoutS, trace }) {
    return { executable: 'ab', args: [...(trace ? ['-v', '2'] : []), '-s', String(timeoutS), '-n', String(requests), '-c', String(connections), url] }
  },
  parse ({ stdout, stderr, requests }) {
    const text = `${stdout}\n${stderr}`
    const taken = /Time taken for tests:\s+([\d.]+) seconds/.exec(text)
    const complete = /Complete requests:\s+(\d+)/.exec(text)
    if (!taken || !complete) throw unreadable('ab', '"Time taken for tests" and "Complete requests"', text)
    const failed = Number((/Failed requests:\s+(\d+)/.exec(text) || [0, 0])[1])
    const non2xx = Number((/Non-2xx responses:\s+(\d+)/.exec(text) || [0, 0])[1])
    const rate = /Transfer rate:\s+([\d.]+) \[Kbytes\/sec\]/.exec(text)
    // "Percentage of the requests served within a certain time (ms)": whole ms.
    const pct = p => { const m = new RegExp(`^\\s*${p}%\\s+(\\d+)`, 'm').exec(text); return m ? Number(m[1]) : null }
    const longest = /100%\s+(\d+) \(longest request\)/.exec(text)
    const latency = pct(50) === null ? null : { p50: pct(50), p90: pct(90), p99: pct(99), max: longest ? Number(longest[1]) : null }
    const done = Number(complete[1])
    // ab counts a connection it could not open as a complete request (a dead
    // port: "Complete requests: 20, Failed requests: 10"): no response is
    // counted without the bytes of one.
    const transferred = /Total transferred:\s+(\d+) bytes/.exec(text)
    const html = /HTML transferred:\s+(\d+) bytes/.exec(text)
    const docLength = /Document Length:\s+(\d+) bytes/.exec(text)
    let received = done
    if (transferred && Number(transferred[1]) === 0) received = 0
    else if (html && docLength && Number(docLength[1]) > 0) received = Math.min(done, Math.floor(Number(html[1]) / Number(docLength[1])))
    const succeeded = Math.max(0, Math.min(received, done - failed - non2xx))
    return result({
      totalMs: Number(taken[1]) * 1000,
      asked: requests,
      succeeded,
      failed: requests - succeeded,
      latency: succeeded ? latency : null,
      toolBytesPerSec: rate ? Number(rate[1]) * 1024 : null,
      // It prints no count: without -k it opens one per request, by design (its trace counts the TLS sessions);
      // the requests answered, then (a dead port's "complete" requests had none).
      toolConnections: toolConnections(received, received ? { min: 1, median: 1, max: 1 } : null, 'ab without -k opens a connection per request: its answered requests (it prints no count of its own)'),
      notes: ['latency percentiles in whole ms (ab rounds them)']
    })
  }
}
