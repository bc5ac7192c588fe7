'use strict'

// npm run studies: the committed studies (every docs/**/results.json), the
// code each was measured with, and whether that code has changed since on the
// measuring path of the command that made it (what every measurement runs:
// the lanes and the page, the link, the harness, the tools; and that
// command's own: the runner's loop, cells, experiments and load tools, or the
// soak's; harness/provenance.js measuringPathFor); not what only writes
// reports from results.json, which `npm run bench -- --from` and
// `npm run soak -- --from` rebuild). A report measured with uncommitted
// changes, or with a commit this history lacks, is stale too: nobody can say
// which code made it.
//   npm run studies                 each study: fresh or stale, and why
//   npm run studies -- --check      the same, exit 1 when any is stale
//   npm run studies -- --commands   the command that reruns each stale study, one a line
const fs = require('node:fs')
const path = require('node:path')
const { parseArgs } = require('node:util')
const { execFileSync } = require('node:child_process')
// The measuring path is declared beside the code that records what a run measured with (harness/provenance.js).
const { MEASURING_PATH, REPORT_ONLY, measuringPathFor } = require('../../harness/provenance')
const { usage } = require('../../common/cli')

const ROOT = path.join(__dirname, '..', '..')

const HELP = `Usage: npm run studies -- [--check] [--commands]

The committed studies (docs/**/results.json): the commit each was measured with, and whether the code a
measurement runs has changed since (report-only code, rebuilt by npm run bench -- --from or
npm run soak -- --from, does not count).
  --check      exit 1 when a study is stale
  --commands   print the command that reruns each stale study (into its own folder), one a line
  --help       this text`

function git (args, cwd = ROOT) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
}

// docs/**/results.json under `root`, as paths relative to it.
function findStudies (root = ROOT) {
  const out = []
  const walk = dir => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(rel)
      else if (entry.name === 'results.json') out.push(rel)
    }
  }
  if (fs.existsSync(path.join(root, 'docs'))) walk('docs')
  return out.sort()
}

// The command that made a study, pointed at its own folder (the runner's and the soak's --out), ready for a shell:
// results.json records the arguments joined by spaces, so an argument such as `--cells a|b` is quoted here.
function rerunCommand (command, dir) {
  const out = /--out\s+\S+/.test(command) ? command.replace(/--out\s+\S+/, `--out ${dir}`) : `${command} --out ${dir}`
  return out.split(/\s+/).map(arg => /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`).join(' ')
}

// → { file, dir, commit, command, fresh, why } for one results.json.
function studyState (file, { root = ROOT, paths = null } = {}) {
  const env = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')).environment || {}
  if (!paths) paths = measuringPathFor(env.command)
  const dir = path.dirname(file)
  const [, commit = null, dirty = ''] = /^\S+\s+([0-9a-f]{7,40})?(.*)$/.exec(env.h2bench || '') || []
  const base = { file, dir, commit, command: env.command ? rerunCommand(env.command, dir) : null }
  if (!commit) return { ...base, fresh: false, why: `no commit recorded (h2bench: ${env.h2bench || 'missing'})` }
  if (/uncommitted/.test(dirty)) return { ...base, fresh: false, why: `measured with uncommitted changes on top of ${commit}: the code that made it is not in the history` }
  try {
    git(['cat-file', '-e', `${commit}^{commit}`], root)
  } catch {
    return { ...base, fresh: false, why: `its commit ${commit} is not in this history` }
  }
  const changed = git(['log', '--format=%h %s', `${commit}..HEAD`, '--', ...paths], root).split('\n').filter(Boolean)
  if (!changed.length) return { ...base, fresh: true, why: `measured with ${commit}; the measuring path has not changed since` }
  const files = git(['diff', '--name-only', commit, 'HEAD', '--', ...paths], root).split('\n').filter(Boolean)
  return {
    ...base,
    fresh: false,
    why: `measured with ${commit}; ${changed.length} commit${changed.length === 1 ? '' : 's'} since changed the measuring path (latest ${changed[0].slice(0, 90)}; ${files.length} file${files.length === 1 ? '' : 's'}: ${files.slice(0, 4).join(', ')}${files.length > 4 ? ', …' : ''})`
  }
}

async function main (argv) {
  const { values } = usage(() => parseArgs({ args: argv, options: { check: { type: 'boolean' }, commands: { type: 'boolean' }, help: { type: 'boolean' } } }))
  if (values.help) {
    console.log(HELP)
    return 0
  }
  const states = findStudies().map(f => studyState(f))
  if (values.commands) {
    for (const s of states.filter(x => !x.fresh && x.command)) console.log(s.command)
    return 0
  }
  for (const s of states) console.log(`${s.fresh ? 'fresh' : 'STALE'}  ${s.dir}: ${s.why}`)
  const stale = states.filter(s => !s.fresh).length
  console.log(`${states.length - stale} of ${states.length} studies fresh${stale ? `; rerun the stale ones (one at a time, nothing else on the machine): npm run studies -- --commands` : ''}`)
  return values.check && stale ? 1 : 0
}

module.exports = { main, studyState, findStudies, rerunCommand, MEASURING_PATH, REPORT_ONLY }
