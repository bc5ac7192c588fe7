// window.h2bench: the one measuring function of the page and its helpers,
// exactly as docs/run-api.md describes (the headless runner depends on it).
// It touches no DOM: it reports through its result, the onProgress option and
// `h2bench:*` events on window, which the page's UI listens to, so a run
// started by the runner is drawn like one started by the Run button.
(function () {
  'use strict'

  const stats = window.h2benchStats
  const verdicts = window.h2benchVerdict
  const checks = window.h2benchOptions
  const cpu = window.h2benchCpu // the CPU each batch used (client/js/cpu.js)
  const config = JSON.parse(document.getElementById('h2bench-config').textContent)
  const lanes = config.lanes
  const limits = config.limits

  let current = null // the run in progress: { stopped, xhrs }

  function emit (type, detail) {
    window.dispatchEvent(new CustomEvent('h2bench:' + type, { detail: detail }))
  }

  function validate (options) {
    return checks.validate(options, { lanes: lanes, limits: limits })
  }

  // The browser's own estimate of the network (Network Information API);
  // null where the browser has none (Firefox, Safari).
  function network () {
    const c = navigator.connection
    if (!c) return null
    return { rtt: c.rtt, downlink: c.downlink, effectiveType: c.effectiveType, saveData: c.saveData, source: 'navigator.connection' }
  }

  // ---- the network the lanes are behind, as the page server says (GET /link.json)
  // A packet-level link (harness/link-session.js's record: { mode: 'packet', name,
  // text, description, up, down }) or none: then only DevTools' request-level
  // throttling can slow the lanes, and the page cannot see it. Read once at
  // load and after each change made through setLink(); every result keeps the
  // link its run started on.
  const REQUEST_LEVEL = { mode: 'request-level', description: 'no packet-level link (DevTools throttling, if any, is not visible to the page)' }
  let linkState = null // { active, link, why, presets, keys, error }: the last answer; link is always a record
  let linkLoading = null // the GET /link.json in flight
  let linkChanging = null // the POST /link in flight

  function copy (value) {
    return value === null || value === undefined ? value : JSON.parse(JSON.stringify(value))
  }

  // `before`: the last state, whose presets and keys stand when an answer (POST /link's) has none.
  function linkStateOf (data, before) {
    return {
      active: Boolean(data.active),
      link: data.active ? data.link : REQUEST_LEVEL,
      why: data.active ? null : (data.why || null),
      presets: Array.isArray(data.presets) ? data.presets : ((before && before.presets) || []),
      keys: Array.isArray(data.keys) ? data.keys : ((before && before.keys) || []),
      error: null
    }
  }

  // → the page server's JSON answer; rejects with an Error carrying status,
  // param and code (the server's InputError fields) on an error status.
  function linkRequest (method, body) {
    const init = { method: method, cache: 'no-store', headers: { Accept: 'application/json' } }
    if (request.accessToken) init.headers['X-H2bench-Token'] = request.accessToken
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json'
      init.body = JSON.stringify(body)
    }
    const path = method === 'GET' ? '/link.json' : '/link'
    return fetch(path, init).then(function (res) {
      return res.json().catch(function () { return {} }).then(function (data) {
        if (res.ok) return data
        const err = new Error(data.error || method + ' ' + path + ': HTTP ' + res.status)
        err.status = res.status
        err.param = data.param || null
        err.code = data.code || null
        throw err
      })
    })
  }

  function setLinkState (state) {
    linkState = state
    emit('link', copy(state))
    return state
  }

  // The current link state, once no change is in flight; read again only
  // when the last read failed.
  function loadLink () {
    if (linkChanging) return linkChanging.then(loadLink, loadLink)
    if (linkLoading) return linkLoading
    if (linkState && !linkState.error) return Promise.resolve(linkState)
    linkLoading = linkRequest('GET').then(function (data) { return linkStateOf(data, null) }, function (err) {
      const why = 'GET /link.json failed: ' + err.message
      return {
        active: false,
        link: { mode: 'unknown', description: 'unknown: the page server did not say which network the lanes are behind (' + why + ')' },
        why: why,
        presets: [],
        keys: [],
        error: why
      }
    }).then(function (state) {
      linkLoading = null
      return setLinkState(state)
    })
    return linkLoading
  }

  // Changes the packet-level link (POST /link) → Promise<link record>.
  // Refused while a run is in progress: a result's link must be the one its
  // batches ran on; a run asked for meanwhile starts once the change settled.
  function setLink (spec) {
    if (current) return Promise.reject(new Error('a run is in progress: change the link once it has finished'))
    if (linkChanging) return Promise.reject(new Error('a link change is already in progress'))
    linkChanging = (linkLoading || Promise.resolve()).then(function () {
      return linkRequest('POST', { spec: spec })
    }).then(function (data) {
      linkChanging = null
      return copy(setLinkState(linkStateOf(data, linkState)).link)
    }, function (err) {
      linkChanging = null
      // Not a refusal (400, 409): the server may have changed part of it; read it again before the next run.
      if (!(err.status >= 400 && err.status < 500) && linkState) linkState = Object.assign({}, linkState, { error: err.message })
      throw err
    })
    return linkChanging
  }

  // The request helpers every measurement of the page shares (client/js/request.js).
  const request = window.h2benchRequest
  const token = request.token
  const round = request.round
  const get = request.get
  const collectTimings = request.collectTimings
  const warmUp = request.warmUp
  const MAX_IN_FLIGHT = request.MAX_IN_FLIGHT
  const PROGRESS_MS = 50 // at most one progress event this often while a batch runs (its first and last always)

  // `requests` parallel jQuery requests at one lane (over opts.transport); elapsed from just before the
  // first is issued to when the last one settled (success or failure).
  function fireBatch (ctl, lane, repeat, position, opts, onProgress) {
    const n = opts.requests
    // The browser's network estimate as this batch starts: DevTools
    // throttling may have been changed since the run began.
    const batch = {
      repeat: repeat, position: position, state: 'running', elapsed: null, ok: 0, failed: 0, aborted: 0, bytes: 0,
      network: network(), maxInFlight: Math.min(n, MAX_IN_FLIGHT), requests: new Array(n)
    }
    const urls = new Array(n)
    const base = lane.url + '/option?size=' + opts.size + '&delay=' + opts.delay + '&r=' + ctl.token + '-' + lane.lane + '-' + repeat + '-'
    for (let i = 0; i < n; i++) urls[i] = new URL(base + i).href
    performance.clearResourceTimings()
    let settled = 0
    let told = -Infinity // when progress was last told (ms into the batch)
    // Told at the start, at most every PROGRESS_MS while requests settle, and when the last has: not for every
    // request, as each telling is an event dispatched and an object made inside the timed batch.
    const progress = function (t) {
      if (settled > 0 && settled < n && t - told < PROGRESS_MS) return
      told = t
      const p = { lane: lane.lane, repeat: repeat, done: settled, total: n, failed: batch.failed, elapsed: round(t) }
      emit('progress', p)
      if (onProgress) {
        try { onProgress(p) } catch (err) { console.error('h2bench onProgress threw:', err) }
      }
    }
    return new Promise(function (resolve) {
      const t0 = performance.now()
      let next = 0 // the next request to issue
      function record (i, start, r) {
        const end = performance.now() - t0
        batch.requests[i] = {
          index: i,
          status: r.status,
          bytes: r.bytes,
          error: r.error,
          start: start === null ? null : round(start),
          end: round(end),
          timing: null
        }
        if (r.aborted) batch.aborted++
        else if (r.error) batch.failed++
        else batch.ok++
        batch.bytes += r.bytes
        settled++
        if (settled === n) {
          batch.elapsed = round(end)
          batch.state = ctl.stopped ? 'stopped' : 'done'
        }
        progress(end)
        if (settled === n) collectTimings(batch, urls, t0).then(function () { resolve(batch) })
      }
      function issue () {
        const i = next++
        const start = performance.now() - t0
        get(ctl, urls[i], opts.size).then(function (r) {
          record(i, start, r)
          if (next >= n) return
          if (!ctl.stopped) return issue()
          // Stopped: what was never issued is aborted too.
          while (next < n) record(next++, null, { status: 0, bytes: 0, error: 'aborted', aborted: true })
        })
      }
      const first = Math.min(n, MAX_IN_FLIGHT)
      for (let k = 0; k < first; k++) issue()
      progress(0)
    })
  }

  function mostFrequent (values) {
    const counts = new Map()
    let best = null
    values.forEach(function (v) {
      counts.set(v, (counts.get(v) || 0) + 1)
      if (best === null || counts.get(v) > counts.get(best)) best = v
    })
    return best
  }

  function finishLane (lane, stopped) {
    const protocols = []
    lane.protocols = {}
    lane.batches.forEach(function (b) {
      b.requests.forEach(function (r) {
        const p = r && r.timing && r.timing.nextHopProtocol
        if (!p) return
        protocols.push(p)
        lane.protocols[p] = (lane.protocols[p] || 0) + 1
      })
    })
    lane.protocol = mostFrequent(protocols)
    // Every measured request, not just most: one on another protocol is enough
    // to make the lane's numbers something else than they claim.
    lane.protocolOk = protocols.length > 0 && protocols.every(function (p) { return p === lane.expectedProtocol })
    lane.summary = stats.summary(lane.samples)
    const answered = lane.batches.reduce(function (s, b) { return s + b.ok }, 0)
    if (lane.unreachable || (answered === 0 && lane.failures > 0)) lane.state = 'failed'
    else lane.state = stopped ? 'stopped' : 'done'
  }

  // One entry per pair of lanes that both measured something, slower first,
  // judged by the verdict engine (shared/verdict.js: the runner's rules too).
  function compare (laneResults) {
    const usable = laneResults.filter(function (l) { return l.samples.length > 0 && l.state !== 'failed' })
    const out = []
    for (let i = 0; i < usable.length; i++) {
      for (let j = i + 1; j < usable.length; j++) {
        let slower = usable[i]
        let faster = usable[j]
        if (slower.summary.median < faster.summary.median) { slower = usable[j]; faster = usable[i] }
        const v = verdicts.compare({ name: slower.lane, samples: slower.samples, failed: slower.leftOut },
          { name: faster.lane, samples: faster.samples, failed: faster.leftOut })
        out.push({
          slower: slower.lane,
          faster: faster.lane,
          // The ratio of medians is shown even when too few runs make it no verdict.
          ratio: Number.isNaN(v.ratio) ? slower.summary.median / faster.summary.median : v.ratio,
          low: v.low,
          high: v.high,
          verdict: v.verdict,
          runs: v.n,
          leftOut: v.failed,
          flags: v.flags,
          sentence: v.sentence
        })
      }
    }
    return out
  }

  async function measure (ctl, opts, onProgress, aroundBatch) {
    // The link as this run starts (a change in flight settles first).
    const link = copy((await loadLink()).link)
    const started = new Date()
    const result = {
      id: started.toISOString() + '-' + token(),
      startedAt: started.toISOString(),
      finishedAt: null,
      state: 'running',
      options: {
        requests: opts.requests, size: opts.size, delay: opts.delay, repeats: opts.repeats, lanes: opts.lanes, cold: opts.cold, transport: opts.transport
      },
      network: network(),
      link: link,
      userAgent: navigator.userAgent,
      cores: cpu.machineCores(),
      lanes: opts.lanes.map(function (name) {
        const l = lanes.find(function (x) { return x.name === name })
        return {
          lane: l.name, label: l.label, url: l.url, expectedProtocol: l.protocol, protocol: null, protocolOk: false,
          state: 'waiting', unreachable: null, samples: [], leftOut: 0, failures: 0, summary: null, batches: [],
          cpu: null // the CPU its batches used (client/js/cpu.js laneSummary)
        }
      }),
      comparisons: []
    }
    ctl.token = Date.now().toString(36) + token()
    // Room for a whole batch: the default buffer (250) would silently drop entries.
    performance.setResourceTimingBufferSize(Math.max(250, opts.requests + 50))
    emit('start', result)
    for (let r = 0; r < opts.repeats && !ctl.stopped; r++) {
      const order = r % 2 === 0 ? result.lanes : result.lanes.slice().reverse()
      for (let p = 0; p < order.length && !ctl.stopped; p++) {
        const lane = order[p]
        if (lane.unreachable) continue
        lane.state = 'running'
        if (!opts.cold) {
          emit('lane', { lane: lane, phase: 'warmup', repeat: r })
          const warm = await warmUp(ctl, lane, opts.requests)
          if (ctl.stopped) break
          if (warm) {
            lane.unreachable = { status: warm.status, error: warm.error }
            lane.failures += 1
            lane.state = 'failed'
            emit('lane', { lane: lane, phase: 'unreachable', repeat: r })
            continue
          }
        }
        emit('lane', { lane: lane, phase: 'batch', repeat: r })
        // aroundBatch: awaited just outside each timed batch (the runner measures its costs there); the
        // page server's CPU readings outside that (client/js/cpu.js), so the runner's windows hold none of theirs.
        const cpuStart = await cpu.read()
        if (aroundBatch) await aroundBatch('start', { lane: lane.lane, repeat: r })
        const batch = await fireBatch(ctl, lane, r, p, opts, onProgress)
        if (aroundBatch) await aroundBatch('end', { lane: lane.lane, repeat: r })
        batch.cpu = cpu.between(cpuStart, await cpu.read())
        lane.batches.push(batch)
        lane.cpu = cpu.laneSummary(lane, result.cores)
        lane.failures += batch.failed
        // A batch with failed requests is kept (and its failures shown) but
        // not timed: failed requests end early, so it timed less than the
        // workload.
        if (batch.state === 'done' && batch.failed === 0) lane.samples.push(batch.elapsed)
        else if (batch.state === 'done') lane.leftOut++
        // Cold runs have no warm-up to tell an untrusted lane: a batch that
        // got not one answer (status 0 throughout) tells it instead.
        if (batch.state === 'done' && batch.ok === 0 && batch.requests.every(function (q) { return q.status === 0 })) {
          lane.unreachable = { status: 0, error: batch.requests[0].error }
        }
        emit('batch', { lane: lane, batch: batch })
      }
    }
    result.lanes.forEach(function (l) { finishLane(l, ctl.stopped) })
    result.comparisons = compare(result.lanes)
    cpu.annotate(result, result.cores)
    result.finishedAt = new Date().toISOString()
    if (ctl.stopped) result.state = 'stopped'
    else result.state = result.lanes.some(function (l) { return l.state === 'failed' }) ? 'failed' : 'done'
    emit('end', result)
    return result
  }

  function run (options) {
    if (current || window.h2bench.running()) return Promise.reject(new Error('a run is already in progress: wait for it or call h2bench.stop()'))
    const checked = validate(options)
    if (!checked.ok) {
      const fields = Object.keys(checked.errors)
      const err = new Error('invalid options: ' + fields.map(function (f) { return checked.errors[f] }).join('; '))
      err.errors = checked.errors
      return Promise.reject(err)
    }
    if (checked.unknown.length) console.warn('h2bench.run: ignoring unknown option(s) ' + checked.unknown.join(', '))
    const ctl = { stopped: false, xhrs: new Set(), token: '', transport: checked.options.transport }
    current = ctl
    return measure(ctl, checked.options, options && options.onProgress, options && options.aroundBatch).then(function (result) {
      current = null
      return result
    }, function (err) {
      current = null
      emit('error', err)
      throw err
    })
  }

  // Aborts every outstanding request; run()'s promise then resolves with
  // state "stopped" and what was measured. false when nothing was running.
  function stop () {
    if (!current) return false
    current.stopped = true
    Array.from(current.xhrs).forEach(function (x) { x.abort() })
    return true
  }

  performance.addEventListener('resourcetimingbufferfull', function () {
    // Something else filled it mid-batch (e.g. page assets): make room rather than lose entries.
    performance.setResourceTimingBufferSize(performance.getEntriesByType('resource').length * 2 + 250)
  })

  window.h2bench = {
    run: run,
    stop: stop,
    validate: function (options) { const r = validate(options); return { ok: r.ok, errors: r.errors } },
    running: function () { return current !== null },
    lanes: lanes,
    // The server's limits, and the page's own on bytes in flight per batch.
    limits: Object.assign({}, limits, { maxInFlightBytes: checks.BROWSER.maxInFlightBytes, browserStreams: checks.BROWSER.streams }),
    maxInFlight: MAX_IN_FLIGHT,
    spki: config.spki,
    stats: stats,
    // The network the lanes are behind: → Promise<{ active, link, why, presets }>.
    link: function () { return loadLink().then(copy) },
    setLink: setLink
  }
  loadLink()
}())
