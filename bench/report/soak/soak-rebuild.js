'use strict'

// npm run soak -- --from results.json: a finished soak's trend, verdict,
// buckets and report again, by this checkout's rules (soak-trend.js), from the
// samples it recorded; the measurement itself is untouched. The result says
// when and by which code it was rebuilt.
const { UsageError } = require('../../../common/errors')
const { readResults } = require('../study-files')
const { environmentRecord } = require('../../../harness/provenance')
const { judgeSoak, tolerances } = require('./soak-trend')
const { buckets } = require('./soak-buckets')

// A soak's measured result (bench/soak/soak-result.js assemble, or a results.json) → the same with its
// buckets, trend and verdict, and the tolerances it was judged by, by this checkout's rules.
function judged (result) {
  const { trend, verdict } = judgeSoak({
    samples: result.samples,
    lanes: result.settings.lanes,
    plannedSeconds: result.settings.minutes * 60,
    loadSeconds: result.durationSeconds,
    stopping: result.stoppedEarly,
    interrupted: result.interrupted,
    failed: result.failed,
    browserFailed: result.browserFailed,
    serverExit: result.serverExit
  })
  return {
    ...result,
    settings: { ...result.settings, tolerances: tolerances() },
    buckets: buckets({ samples: result.samples, runs: result.runs, seconds: result.settings.bucketSeconds }),
    trend,
    verdict
  }
}

// The results.json of a soak at `file` → the same, rebuilt.
function rebuildSoak (file) {
  const json = readResults(file)
  const missing = ['settings', 'samples', 'runs', 'totals', 'durationSeconds'].filter(k => json[k] === undefined)
  if (json.tool !== 'h2bench soak' || missing.length) {
    throw new UsageError(`--from ${file} is not a soak's results.json (tool "${json.tool}"${missing.length ? `; missing ${missing.join(', ')}` : ''})`)
  }
  return { ...judged(json), rebuilt: { date: new Date().toISOString(), h2bench: environmentRecord().h2bench } }
}

module.exports = { rebuildSoak, judged }
