// window.h2benchCpu: how much CPU the browser and the lanes' servers used
// during each batch, so the page can say when a verdict rests on this
// machine's CPU rather than on the protocols alone. The page server reads it
// (GET /cpu.json, server/cpu.js): the browser's processes, found from this
// page's own connection to it, and the lanes' (its own Node process, Caddy's
// for the edge lanes). client/js/bench.js asks at each batch's start and end;
// a core is a second of CPU per second of the time between the two readings.
// The rule that says "this rests on CPU" is the verdict engine's
// (shared/verdict.js cpuLoad, restsOnCpu); this file only measures and
// summarises. Nothing here can fail a run: what cannot be read is null with
// the reason.
(function () {
  'use strict'

  const stats = window.h2benchStats
  const verdicts = window.h2benchVerdict
  const request = window.h2benchRequest

  // The page server's reading → Promise<{ at, tickMs, browser, servers }> or
  // { error }; never rejects.
  function read () {
    const init = { cache: 'no-store', headers: { Accept: 'application/json' } }
    if (request.accessToken) init.headers['X-H2bench-Token'] = request.accessToken
    return fetch('/cpu.json', init).then(function (res) {
      return res.json().catch(function () { return {} }).then(function (data) {
        if (res.ok && data && typeof data.at === 'number' && data.browser && data.servers) return data
        return { error: 'GET /cpu.json: ' + ((data && data.error) || 'HTTP ' + res.status) }
      })
    }, function (err) {
      return { error: 'GET /cpu.json failed: ' + err.message }
    })
  }

  function known (x) { return typeof x === 'number' && isFinite(x) }
  function round1 (v) { return Math.round(v * 10) / 10 }
  function round2 (v) { return Math.round(v * 100) / 100 }

  // Two readings (`a` at a batch's start, `b` at its end) → the batch's cpu
  // record (docs/run-api.md): cores are CPU ms over the readings' wall ms.
  // A browser process that ended between them is lost; one born between
  // them counts whole.
  function between (a, b) {
    const out = {
      wallMs: null,
      browserCpuMs: null,
      browserCores: null,
      serverCpuMs: null,
      serverCores: null,
      nodeCores: null,
      caddyCores: null,
      machineCores: null,
      otherCores: null,
      busiest: null,
      browser: null,
      browserPid: null,
      processes: null,
      source: null,
      reason: null,
      serverReason: null
    }
    const failed = !a || !b ? 'no CPU reading' : a.error || b.error
    if (failed) {
      out.reason = out.serverReason = failed
      return out
    }
    const wall = b.at - a.at
    out.wallMs = round1(wall)
    const cores = function (ms) { return wall > 0 ? round2(ms / wall) : null }
    if (a.browser.cpuMs === null || b.browser.cpuMs === null) {
      out.reason = b.browser.reason || a.browser.reason
    } else if (a.browser.root !== b.browser.root) {
      out.reason = 'the browser\'s processes were found anew between the batch\'s readings (process ' + a.browser.root + ', then ' + b.browser.root + ')'
    } else {
      const before = new Map(a.browser.processes.map(function (p) { return [p.pid, p.cpuMs] }))
      let sum = 0
      let busiest = null
      b.browser.processes.forEach(function (p) {
        const ms = p.cpuMs - (before.get(p.pid) || 0)
        sum += ms
        if (!busiest || ms > busiest.ms) busiest = { type: p.type, pid: p.pid, ms: ms }
      })
      out.browserCpuMs = round1(sum)
      out.browserCores = cores(sum)
      out.busiest = busiest && { type: busiest.type, pid: busiest.pid, cores: cores(busiest.ms) }
      out.browser = b.browser.name
      out.browserPid = b.browser.root
      out.processes = b.browser.processes.length
      out.source = 'the page server\'s /proc (' + b.tickMs + ' ms ticks): ' + b.browser.found
    }
    if (known(a.servers.node) && known(b.servers.node)) {
      const node = b.servers.node - a.servers.node
      const caddy = known(a.servers.caddy) && known(b.servers.caddy) ? b.servers.caddy - a.servers.caddy : null
      out.serverCpuMs = round1(node + (caddy || 0))
      out.serverCores = cores(node + (caddy || 0))
      out.nodeCores = cores(node)
      out.caddyCores = caddy === null ? null : cores(caddy)
    } else {
      out.serverReason = b.servers.reason || a.servers.reason
    }
    // The whole machine's busy CPU, when it is the browser's machine (the browser was found on it); what neither the
    // browser nor the servers used is another process's.
    if (known(out.browserCores) && a.machine && b.machine && known(a.machine.busyMs) && known(b.machine.busyMs)) {
      out.machineCores = cores(b.machine.busyMs - a.machine.busyMs)
      out.otherCores = round2(Math.max(0, out.machineCores - out.browserCores - (out.serverCores || 0)))
    }
    return out
  }

  function mode (values) {
    const counts = {}
    let best = null
    values.forEach(function (v) {
      counts[v] = (counts[v] || 0) + 1
      if (best === null || counts[v] > counts[best]) best = v
    })
    return best
  }

  // A lane's CPU over its batches: each figure the median of its batches'
  // (docs/run-api.md), and the verdict engine's reading of it (`rests`, `flag`).
  // `cores`: the machine's (navigator.hardwareConcurrency).
  function laneSummary (lane, cores) {
    const cpus = lane.batches.map(function (b) { return b.cpu }).filter(Boolean)
    const median = function (field, round) {
      const v = cpus.map(function (c) { return c[field] }).filter(known)
      return v.length ? round(stats.median(v)) : null
    }
    const measured = cpus.filter(function (c) { return known(c.browserCores) })
    const busy = measured.map(function (c) { return c.busiest }).filter(function (x) { return x && known(x.cores) })
    const out = {
      batches: measured.length,
      browserCores: median('browserCores', round2),
      serverCores: median('serverCores', round2),
      nodeCores: median('nodeCores', round2),
      caddyCores: median('caddyCores', round2),
      machineCores: median('machineCores', round2),
      otherCores: median('otherCores', round2),
      browserCpuMs: median('browserCpuMs', round1),
      serverCpuMs: median('serverCpuMs', round1),
      wallMs: median('wallMs', round1),
      busiest: busy.length
        ? { type: mode(busy.map(function (x) { return x.type })), cores: round2(stats.median(busy.map(function (x) { return x.cores }))) }
        : null,
      browser: measured.length ? measured[measured.length - 1].browser : null,
      source: measured.length ? measured[measured.length - 1].source : null,
      reason: measured.length || !cpus.length ? null : cpus[cpus.length - 1].reason,
      serverReason: cpus.some(function (c) { return known(c.serverCores) }) || !cpus.length ? null : cpus[cpus.length - 1].serverReason,
      cores: known(cores) ? cores : null,
      rests: false,
      flag: null
    }
    const load = verdicts.cpuLoad(out, { cores: cores })
    out.rests = load.rests
    out.flag = load.text || null
    return out
  }

  // Each comparison of a finished result: does its verdict rest on CPU? The
  // verdict engine's answer, with the lanes' labels: comparisons[].cpu =
  // { rests, lanes, sentence }.
  function annotate (result, cores) {
    const lane = function (name) { return result.lanes.find(function (l) { return l.lane === name }) }
    result.comparisons.forEach(function (c) {
      const slower = lane(c.slower)
      const faster = lane(c.faster)
      c.cpu = verdicts.restsOnCpu([{ name: slower.label, cpu: slower.cpu }, { name: faster.label, cpu: faster.cpu }], { cores: cores, verdict: c.verdict })
    })
    return result
  }

  // The machine's cores, as the browser says (null where it does not).
  function machineCores () {
    const n = navigator.hardwareConcurrency
    return known(n) && n > 0 ? n : null
  }

  window.h2benchCpu = { read: read, between: between, laneSummary: laneSummary, annotate: annotate, machineCores: machineCores }
}())
