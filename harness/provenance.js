'use strict'

// What a benchmark measured with: the code (version, commit), Node, the
// machine and the browser's version, for the record every bench script and
// h2bench load writes. One place reads them; each record names them alike.
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { version } = require('../package.json')

const ROOT = path.join(__dirname, '..')

// fn(), or `fallback` when it throws.
function quietly (fn, fallback) {
  try { return fn() } catch { return fallback }
}

function chromiumVersion (executablePath) {
  return quietly(() => execFileSync(executablePath, ['--version'], { encoding: 'utf8', timeout: 10000, stdio: ['ignore', 'pipe', 'ignore'] }).trim(), path.basename(executablePath))
}

// The rooms whose code a measurement runs (docs/architecture.md, "Rooms and layers"), and vendor/: the
// patched spdy-transport lane h2 runs (vendor/spdy-transport).
const MEASURED_CODE = ['bench', 'bin', 'client', 'common', 'harness', 'link', 'load', 'server', 'shared', 'tools', 'vendor', 'views']

// What in those rooms only turns results.json into reports, tables and verdicts: a change there is a
// rebuild (npm run bench -- --from, npm run soak -- --from), not a rerun, and measuring beside such a change
// uncommitted still names the code that measured. Rooms, not a list of files: bench/report/ (the claims,
// the reports, the studies index…), the verdict engine the page and the reports share, and the two
// commands that run nothing but those. test/architecture/layers.test.js checks that nothing that measures
// imports them (docs/architecture.md, "Rooms and layers").
const REPORT_ROOMS = ['bench/report', 'shared/verdict.js', 'bin/h2bench-studies.js', 'bin/h2bench-verdict-calibration.js']

// pathspecs of `rooms` less REPORT_ROOMS.
function pathspecs (rooms) {
  return [
    ...rooms,
    ...REPORT_ROOMS.map(p => `:(exclude,glob)${p.includes('*') ? p : `${p}/**`}`),
    ...REPORT_ROOMS.filter(p => /\.js$/.test(p) && !p.includes('*')).map(p => `:(exclude)${p}`)
  ]
}

// The measuring path as git pathspecs: MEASURED_CODE less REPORT_ROOMS.
const MEASURING_PATH = pathspecs(MEASURED_CODE)

// What each study-making command runs beyond the rooms every measurement
// shares (the lanes and the page, the link, the harness, the tools): its own
// folders. A study depends on those and the shared rooms; a change to another
// command's folders (the soak's, say, for a runner study) leaves it fresh.
// Firefox's harness is measured only by a runner study that drives Firefox
// (--browser firefox or both; the soak drives Chromium alone): it is left out
// of every other study's path.
const FIREFOX = ['harness/firefox', 'harness/firefox.js']
// bin/ holds one entry point a command: a study depends on its own (and on
// the build of the tools every one runs).
const RUNNER = ['bin/h2bench-run.js', 'bench/commands/run.js', 'bench/runner', 'bench/kinds', 'bench/cells', 'bench/experiments', 'load']
// bench:link runs its folder but the link guide's screenshots (another
// command's); bench:qlog-cost runs h2bench load's code (load/load.js) on the h3 lane.
const TOOL_ROOMS = {
  'npm run soak': ['bin/h2bench-soak.js', 'bench/commands/soak.js', 'bench/soak'],
  'npm run bench:link': ['bin/h2bench-link-bench.js', 'bench/commands/link-bench.js', 'bench/link-bench', ':(exclude)bench/link-bench/link-screenshots.js'],
  'npm run bench:qlog-cost': ['bin/h2bench-qlog-cost.js', 'bench/commands/qlog-cost.js', 'bench/qlog-cost', 'load'],
  'npm run bench:page': ['bin/h2bench-page-cost.js', 'bench/commands/page-cost.js', 'bench/page-cost'],
  'npm run bench:pairing': ['bin/h2bench-pairing.js', 'bench/commands/pairing.js', 'bench/pairing', ...RUNNER],
  'npm run bench': RUNNER
}
const SHARED_ROOMS = [...MEASURED_CODE.filter(room => !['bench', 'bin', 'load'].includes(room)), 'bin/h2bench-build.js']

// The measuring path of the study a command made (results.json's
// environment.command), as git pathspecs; a command of no known tool
// depends on all of MEASURED_CODE.
function measuringPathFor (command = '') {
  const tool = Object.keys(TOOL_ROOMS).sort((a, b) => b.length - a.length).find(t => command === t || command.startsWith(`${t} `))
  if (!tool) return MEASURING_PATH
  const firefox = tool === 'npm run bench' && /--browser[ =](firefox|both)\b/.test(command)
  return [...pathspecs([...SHARED_ROOMS, ...TOOL_ROOMS[tool]]), ...(firefox ? [] : FIREFOX.map(r => `:(exclude)${r}`))]
}

// The short commit, marked when files on the measuring path have uncommitted
// changes (naming up to four of them); null outside a git checkout.
function gitCommit ({ root = ROOT } = {}) {
  const git = args => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  const head = quietly(() => git(['rev-parse', '--short', 'HEAD']).trim(), null)
  if (!head) return null
  // Porcelain lines are `XY path`: the path from the fourth character.
  const status = quietly(() => git(['status', '--porcelain', '--untracked-files=all', '--', ...MEASURING_PATH]), '')
  const dirty = status.split('\n').filter(Boolean).map(line => line.slice(3)).sort()
  if (!dirty.length) return head
  return `${head} (with uncommitted changes: ${dirty.slice(0, 4).join(', ')}${dirty.length > 4 ? `, and ${dirty.length - 4} more` : ''})`
}

// The code and the machine: { h2bench: '<version> <commit>', node, cpu, cpus, memoryGiB, os }.
function environmentRecord ({ commit = gitCommit() } = {}) {
  const cpus = os.cpus()
  return {
    h2bench: `${version}${commit ? ` ${commit}` : ''}`,
    node: process.version,
    cpu: cpus.length ? cpus[0].model.trim() : 'unknown',
    cpus: cpus.length,
    memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    os: `${os.type()} ${os.release()} ${os.arch()}`
  }
}

module.exports = { quietly, chromiumVersion, gitCommit, environmentRecord, measuringPathFor, MEASURED_CODE, REPORT_ROOMS, MEASURING_PATH, TOOL_ROOMS }
