// window.h2bench.rest: seed 001's REST scenarios (Evert Pot), measured with
// the page's own requests (client/js/request.js): a visit fetches a HAL
// collection from a lane and then every item it links to, or the compound
// document with every item embedded, and times it from the first request to
// the last answer. The lane decides the protocol; the scenario what a visit
// does:
//   separate     the collection, then every item by its own request (no-store)
//   compound     one document with every item embedded
//   cache        an earlier, unmeasured visit left 90 % of the items fresh
//                in the browser's cache (max-age): only the rest go out
//   cache-stale  the same, but the cached items must be revalidated
//                (no-cache + ETag): the server answers 304
//   push         the collection asks Prefer-Push: item; the lane pushes the
//                items where the browser lets it (browsers refuse today),
//                and the page requests every item as in separate
// Every visit records how many requests went to the network and how many
// came from the cache (Resource Timing: transferSize 0 with a body), and how
// many the server answered 304 (GET /api/stats/<tag> before and after the
// visit: Firefox's Resource Timing shows a 304 as a full transfer). A cache
// visit whose cache hits (or 304s) are not all there is not a sample: it is
// reported as unproven, never timed as if it had them. Every item request
// (and the collection, but for push, whose URL must stay the same for its
// CORS preflight to be kept) carries ledger=<visit>: the server's ledger
// then tells on how many connections the browser sent them (server/ledger.js).
(function () {
  'use strict'

  const request = window.h2benchRequest
  const stats = window.h2benchStats
  const config = JSON.parse(document.getElementById('h2bench-config').textContent)
  const lanes = config.lanes

  const SCENARIOS = ['separate', 'compound', 'cache', 'cache-stale', 'push']
  const CACHE_OF = { separate: 'none', compound: 'none', cache: 'fresh', 'cache-stale': 'revalidate', push: 'none' }
  // The share of items an earlier visit left in the cache (the source's 90 %).
  const CACHED_SHARE = 0.9
  // The server's limits (server/routes/api.js LIMITS).
  const LIMITS = { maxItems: 1000, minSize: 256, maxSize: 65536, maxCompoundBytes: 32 * 1024 * 1024, maxDelay: config.limits.maxDelay, maxRepeats: 100 }
  const DEFAULTS = { items: 25, size: 512, delay: 0, repeats: 1 }

  let current = null // { stopped, xhrs, token }

  const emit = (type, detail) => window.dispatchEvent(new CustomEvent('h2bench:' + type, { detail: detail }))

  function intIn (options, errors, name, min, max) {
    const raw = options[name] === undefined ? DEFAULTS[name] : options[name]
    const v = Number(raw)
    if (!Number.isInteger(v) || v < min || v > max) errors[name] = name + ' must be an integer ' + min + '…' + max + '; got ' + JSON.stringify(raw)
    return v
  }

  // → { ok, errors: { field: message }, options }
  function validate (options) {
    options = options || {}
    const errors = {}
    const out = {
      items: intIn(options, errors, 'items', 1, LIMITS.maxItems),
      size: intIn(options, errors, 'size', LIMITS.minSize, LIMITS.maxSize),
      delay: intIn(options, errors, 'delay', 0, LIMITS.maxDelay),
      repeats: intIn(options, errors, 'repeats', 1, LIMITS.maxRepeats),
      lanes: options.lanes === undefined ? lanes.map(function (l) { return l.name }) : options.lanes,
      scenarios: options.scenarios === undefined ? SCENARIOS.slice() : options.scenarios
    }
    const known = lanes.map(function (l) { return l.name })
    if (!Array.isArray(out.lanes) || !out.lanes.length || out.lanes.some(function (l) { return known.indexOf(l) < 0 })) {
      errors.lanes = 'lanes must be a non-empty list of ' + known.join(', ') + '; got ' + JSON.stringify(options.lanes)
    }
    if (!Array.isArray(out.scenarios) || !out.scenarios.length || out.scenarios.some(function (s) { return SCENARIOS.indexOf(s) < 0 })) {
      errors.scenarios = 'scenarios must be a non-empty list of ' + SCENARIOS.join(', ') + '; got ' + JSON.stringify(options.scenarios)
    }
    if (!errors.items && !errors.size && out.scenarios.indexOf && out.scenarios.indexOf('compound') >= 0 && out.items * out.size > LIMITS.maxCompoundBytes) {
      errors.size = 'the compound document of ' + out.items + ' items of ' + out.size + ' B is above 32 MiB: size ≤ ' + Math.floor(LIMITS.maxCompoundBytes / out.items) + ' at ' + out.items + ' items'
    }
    if (options.aroundVisit !== undefined) {
      if (typeof options.aroundVisit !== 'function') errors.aroundVisit = 'aroundVisit must be a function'
      else out.aroundVisit = options.aroundVisit
    }
    return { ok: Object.keys(errors).length === 0, errors: errors, options: out }
  }

  // How many of n items the earlier visit left in the cache: 23 of 25, 450 of 500.
  const cachedCount = function (n) { return Math.round(n * CACHED_SHARE) }

  function apiStats (ctl, lane, tag) {
    return request.get(ctl, request.withAccess(lane.url + '/api/stats/' + tag + '?r=' + request.token()), undefined, { body: true }).then(function (a) {
      if (a.error) throw new Error('GET /api/stats/' + tag + ' on ' + lane.name + ': ' + a.error)
      return JSON.parse(a.body)
    })
  }

  function itemUrls (ctl, lane, body, ledger) {
    const doc = JSON.parse(body)
    return doc._links.item.map(function (l) { return new URL(l.href + '&ledger=' + ledger, lane.url).href })
  }

  // → the connections the server saw requests of ledger `id` on, or null.
  function connections (ctl, lane, id) {
    return request.get(ctl, request.withAccess(lane.url + '/ledger/' + id + '?r=' + request.token()), undefined, { body: true }).then(function (a) {
      return a.error ? null : JSON.parse(a.body).connections
    })
  }

  // The unmeasured part of a visit: connections open (the page's warm-up),
  // the cache filled by an earlier visit, the CORS preflight of Prefer-Push
  // answered and kept. → null, or the failure.
  async function prepare (ctl, lane, scenario, collectionUrl, opts, ledger) {
    const warm = await request.warmUp(ctl, lane, opts.items + 1)
    if (warm) return 'warm-up: ' + warm.error
    if (scenario === 'cache' || scenario === 'cache-stale') {
      const c = await request.get(ctl, collectionUrl, undefined, { body: true })
      if (c.error) return 'earlier visit: collection: ' + c.error
      const urls = itemUrls(ctl, lane, c.body, ledger).slice(0, cachedCount(opts.items))
      const answers = await Promise.all(urls.map(function (u) { return request.get(ctl, u, opts.size) }))
      const bad = answers.find(function (a) { return a.error })
      if (bad) return 'earlier visit: item: ' + bad.error
    }
    if (scenario === 'push') {
      const p = await request.get(ctl, collectionUrl, undefined, { headers: { 'Prefer-Push': 'item' } })
      if (p.error) return 'preflight: ' + p.error
    }
    return null
  }

  // One measured visit. → the visit's record (see docs/run-api.md).
  async function visit (ctl, lane, scenario, repeat, opts) {
    // Each visit has items of its own (tag); push keeps one collection URL per lane, so its preflight stays cached.
    const tag = ctl.token + '-' + lane.name + '-' + (scenario === 'push' ? 'push' : SCENARIOS.indexOf(scenario) + '-' + repeat)
    const query = 'count=' + opts.items + '&size=' + opts.size + '&cache=' + CACHE_OF[scenario] + '&tag=' + tag + '&delay=' + opts.delay
    // The ledger: per visit; the earlier visit of a cache scenario shares it (the same URLs, or no cache hits).
    const ledger = ctl.token + '-' + lane.name + '-' + SCENARIOS.indexOf(scenario) + '-' + repeat
    const collectionUrl = new URL(lane.url + (scenario === 'compound' ? '/api/compound?' : '/api/items?') + query + (scenario === 'push' ? '' : '&ledger=' + ledger)).href
    const v = {
      repeat: repeat, elapsed: null, error: null, requests: 0, network: 0, cache: 0, revalidated: 0, untimed: 0,
      server: null, pushed: 0, pushOutcome: null, protocol: null, cacheExpected: 0, proven: null, connections: null
    }
    const failed = await prepare(ctl, lane, scenario, collectionUrl, opts, ledger)
    if (failed) {
      v.error = failed
      return v
    }
    const before = await apiStats(ctl, lane, tag)
    performance.clearResourceTimings()
    const answers = []
    const urls = [collectionUrl]
    // aroundVisit: awaited just outside the timed visit (the runner measures its costs there).
    if (opts.aroundVisit) await opts.aroundVisit('start', { lane: lane.name, scenario: scenario, repeat: repeat })
    const t0 = performance.now()
    let end = 0
    const first = await request.get(ctl, collectionUrl, undefined, {
      body: true, header: 'X-H2bench-Push', headers: scenario === 'push' ? { 'Prefer-Push': 'item' } : {}
    })
    end = performance.now() - t0
    answers.push(first)
    if (!first.error && scenario === 'compound') {
      const doc = JSON.parse(first.body)
      const n = doc._embedded && doc._embedded.item ? doc._embedded.item.length : 0
      if (n !== opts.items) first.error = 'the compound document embeds ' + n + ' of ' + opts.items + ' items'
    } else if (!first.error) {
      v.pushOutcome = first.header || null
      const items = itemUrls(ctl, lane, first.body, ledger)
      const got = await Promise.all(items.map(function (u) {
        return request.get(ctl, u, opts.size).then(function (a) {
          end = Math.max(end, performance.now() - t0)
          return a
        })
      }))
      urls.push.apply(urls, items)
      answers.push.apply(answers, got)
    }
    const elapsed = end
    if (opts.aroundVisit) await opts.aroundVisit('end', { lane: lane.name, scenario: scenario, repeat: repeat })
    const batch = { requests: answers.map(function (a) { return { status: a.status, timing: null } }) }
    await request.collectTimings(batch, urls, t0)
    const after = await apiStats(ctl, lane, tag)
    v.connections = await connections(ctl, lane, ledger)
    v.requests = answers.length
    batch.requests.forEach(function (r) {
      const t = r.timing
      if (!t) v.untimed++
      else if (t.transferSize === 0 && t.decodedBodySize > 0) v.cache++
      else v.network++
    })
    v.protocol = batch.requests[0].timing ? batch.requests[0].timing.nextHopProtocol : null
    v.server = {
      requests: (after.collection - before.collection) + (after.compound - before.compound) +
        (after.items[200] - before.items[200]) + (after.items[304] - before.items[304]),
      items200: after.items[200] - before.items[200],
      items304: after.items[304] - before.items[304]
    }
    v.revalidated = v.server.items304
    v.pushed = after.pushed - before.pushed
    const bad = answers.find(function (a) { return a.error })
    if (bad) {
      v.error = (answers.filter(function (a) { return a.error }).length) + ' of ' + answers.length + ' requests failed: ' + bad.error
      return v
    }
    if (scenario === 'cache' || scenario === 'cache-stale') {
      v.cacheExpected = cachedCount(opts.items)
      const seen = scenario === 'cache' ? v.cache : v.revalidated
      v.proven = seen === v.cacheExpected
    }
    v.elapsed = request.round(elapsed)
    return v
  }

  function mostFrequent (values) {
    const counts = {}
    let best = null
    values.forEach(function (x) {
      if (x === null) return
      counts[x] = (counts[x] || 0) + 1
      if (best === null || counts[x] > counts[best]) best = x
    })
    return best
  }

  // The row of one lane and scenario after its visits.
  function finishRow (row) {
    const med = function (key) {
      const xs = row.visits.filter(function (v) { return !v.error }).map(function (v) { return v[key] })
      return xs.length ? stats.median(xs) : null
    }
    row.summary = stats.summary(row.samples)
    row.protocol = mostFrequent(row.visits.map(function (v) { return v.protocol }))
    row.protocolOk = row.protocol === row.expectedProtocol
    row.counts = { requests: med('requests'), network: med('network'), cache: med('cache'), revalidated: med('revalidated'), pushed: med('pushed'), connections: med('connections'), serverRequests: null }
    const served = row.visits.filter(function (v) { return !v.error && v.server }).map(function (v) { return v.server.requests })
    row.counts.serverRequests = served.length ? stats.median(served) : null
    row.failures = row.visits.filter(function (v) { return v.error }).length
    row.unproven = row.visits.filter(function (v) { return v.proven === false }).length
    row.pushOutcome = mostFrequent(row.visits.map(function (v) { return v.pushOutcome }))
  }

  async function measure (ctl, opts, onProgress) {
    const link = await window.h2bench.link().then(function (s) { return s.link }, function () { return null })
    const started = new Date()
    const result = {
      id: started.toISOString() + '-' + request.token(),
      kind: 'rest',
      startedAt: started.toISOString(),
      finishedAt: null,
      state: 'running',
      options: { items: opts.items, size: opts.size, delay: opts.delay, repeats: opts.repeats, lanes: opts.lanes, scenarios: opts.scenarios },
      cachedShare: CACHED_SHARE,
      link: link,
      userAgent: navigator.userAgent,
      rows: []
    }
    opts.lanes.forEach(function (name) {
      const l = lanes.find(function (x) { return x.name === name })
      opts.scenarios.forEach(function (scenario) {
        result.rows.push({ lane: l.name, label: l.label, url: l.url, expectedProtocol: l.protocol, scenario: scenario, samples: [], visits: [] })
      })
    })
    performance.setResourceTimingBufferSize(Math.max(250, 2 * opts.items + 50))
    emit('rest-start', result)
    const total = result.rows.length * opts.repeats
    let done = 0
    for (let r = 0; r < opts.repeats && !ctl.stopped; r++) {
      const order = r % 2 === 0 ? result.rows : result.rows.slice().reverse()
      for (let k = 0; k < order.length && !ctl.stopped; k++) {
        const row = order[k]
        const lane = { name: row.lane, url: row.url }
        let v
        try {
          v = await visit(ctl, lane, row.scenario, r, opts)
        } catch (err) {
          v = { repeat: r, elapsed: null, error: err.message }
        }
        if (ctl.stopped) break
        row.visits.push(v)
        if (!v.error && v.proven !== false) row.samples.push(v.elapsed)
        done++
        const p = { lane: row.lane, scenario: row.scenario, repeat: r, done: done, total: total, visit: v }
        emit('rest-progress', p)
        if (onProgress) {
          try { onProgress(p) } catch (err) { console.error('h2bench.rest onProgress threw:', err) }
        }
      }
    }
    result.rows.forEach(finishRow)
    result.finishedAt = new Date().toISOString()
    result.state = ctl.stopped ? 'stopped' : 'done'
    emit('rest-end', result)
    return result
  }

  function rest (options) {
    if (current || window.h2bench.running()) return Promise.reject(new Error('a run is already in progress: wait for it or call h2bench.stop()'))
    const checked = validate(options)
    if (!checked.ok) {
      const err = new Error('invalid options: ' + Object.keys(checked.errors).map(function (f) { return checked.errors[f] }).join('; '))
      err.errors = checked.errors
      return Promise.reject(err)
    }
    // The visits measure the browser's HTTP cache (304s, fresh items): their requests go through it (request.js).
    const ctl = { stopped: false, xhrs: new Set(), token: Date.now().toString(36) + request.token(), cache: 'default' }
    current = ctl
    return measure(ctl, checked.options, options && options.onProgress).then(function (result) {
      current = null
      return result
    }, function (err) {
      current = null
      emit('rest-error', err)
      throw err
    })
  }

  const stopRun = window.h2bench.stop
  const runningRun = window.h2bench.running
  window.h2bench.rest = rest
  window.h2bench.rest.validate = function (options) { const r = validate(options); return { ok: r.ok, errors: r.errors } }
  window.h2bench.rest.SCENARIOS = SCENARIOS
  window.h2bench.rest.CACHED_SHARE = CACHED_SHARE
  window.h2bench.rest.LIMITS = LIMITS
  // stop() and running() cover REST runs too.
  window.h2bench.stop = function () {
    if (!current) return stopRun()
    current.stopped = true
    Array.from(current.xhrs).forEach(function (x) { x.abort() })
    return true
  }
  window.h2bench.running = function () { return current !== null || runningRun() }
}())
