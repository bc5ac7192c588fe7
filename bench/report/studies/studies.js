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
//   npm run studies                 each study: fresh or stale, and why (the commits since)
//   npm run studies -- --check      the same, exit 1 when any is stale (the release check)
//   npm run studies -- --commands   the command that reruns each stale study, one a line
//   npm run studies -- --write      write docs/STUDIES.md, the index of the studies: each one's state, naming the
//                                   files on its measuring path that differ from its commit in the working tree
//                                   (npm test holds the committed index to what this writes), and the
//                                   README's verdicts regions from their reports (readme-verdicts.js)
const fs = require('node:fs')
const path = require('node:path')
const { parseArgs } = require('node:util')
const { execFileSync } = require('node:child_process')
// The measuring path is declared beside the code that records what a run measured with (harness/provenance.js).
const { MEASURING_PATH, REPORT_ROOMS, measuringPathFor } = require('../../../harness/provenance')
const { usage, shellWord, shellWords } = require('../../../common/cli')
const { UserError } = require('../../../common/errors')
const { rewriteReadme } = require('./readme-verdicts')

const ROOT = path.join(__dirname, '..', '..', '..')

const INDEX = 'docs/STUDIES.md'

const HELP = `Usage: npm run studies -- [--check] [--commands] [--write]

The committed studies (docs/**/results.json): the commit each was measured with, and whether the code a
measurement runs has changed since (report-only code, rebuilt by npm run bench -- --from or
npm run soak -- --from, does not count).
  --check      exit 1 when a study is stale (the release check)
  --commands   print the command that reruns each stale study (into its own folder), one a line
  --write      write ${INDEX}: a row a study, naming the files on its measuring path that differ from its
               commit in the working tree (npm test fails while the committed index differs from it); and
               rewrite the README's verdicts regions from the reports they name (bench/report/studies/readme-verdicts.js)
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

// The command that made a study, pointed at its own folder (the runner's and the soak's --out), ready for a shell.
// A study records its command with each argument a shell word (common/cli.js commandLine): read back as such. One
// recorded before that joined its arguments by spaces (no quote in it), so there the values that may hold spaces
// (--cells "clean · page 1|…", --link "Regular 3G") are every word up to the next flag.
const SPACED = new Set(['--cells', '--link'])
function rerunCommand (command, dir) {
  const words = shellWords(command)
  const spacedByJoin = !words.some(w => w.quoted)
  const args = []
  let out = false
  for (let i = 0; i < words.length; i++) {
    const { word } = words[i]
    if (word === '--out') {
      args.push(word, dir)
      out = true
      i++
      continue
    }
    args.push(word)
    if (!spacedByJoin || !SPACED.has(word)) continue
    const value = []
    while (i + 1 < words.length && !words[i + 1].word.startsWith('--')) value.push(words[++i].word)
    if (value.length) args.push(value.join(' '))
  }
  if (!out) args.push('--out', dir)
  return args.map(shellWord).join(' ')
}

// Why the history cannot say which commits came after a study's, or null when it can.
function historyMissing (root = ROOT) {
  let shallow
  try {
    shallow = git(['rev-parse', '--is-shallow-repository'], root)
  } catch (err) {
    return err.code === 'ENOENT' ? 'git is not installed here' : 'this checkout is not a git repository'
  }
  return shallow === 'true' ? 'this clone is shallow' : null
}

// A study's state, as the index words it.
const STATES = {
  fresh: 'fresh',
  moved: 'the measuring path moved since',
  none: 'no commit recorded',
  uncommitted: 'uncommitted changes',
  missing: 'commit not in this history'
}

const lines = text => text.split('\n').filter(Boolean)

// → { file, dir, commit, date, command, state, fresh, files, why } for one results.json; `state` is one of STATES.
// The measuring path is compared with the study's commit at HEAD (npm run studies: the commits since, too), or in
// the working tree (`worktree`, for the index: the same whether a change is committed yet or not, and naming no
// commit made after the study, which the commit that carries the index could not name of itself).
function studyState (file, { root = ROOT, paths = null, worktree = false } = {}) {
  const env = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')).environment || {}
  if (!paths) paths = measuringPathFor(env.command)
  const dir = path.dirname(file)
  const [, commit = null, dirty = ''] = /^\S+\s+([0-9a-f]{7,40})?(.*)$/.exec(env.h2bench || '') || []
  const base = { file, dir, commit, date: null, command: env.command ? rerunCommand(env.command, dir) : null, files: [], fresh: false }
  if (!commit) return { ...base, state: STATES.none, why: `no commit recorded (h2bench: ${env.h2bench || 'missing'})` }
  if (/uncommitted/.test(dirty)) return { ...base, state: STATES.uncommitted, why: `measured with uncommitted changes on top of ${commit}: the code that made it is not in the history` }
  let date
  try {
    date = git(['show', '-s', '--format=%cs', `${commit}^{commit}`], root)
  } catch {
    return { ...base, state: STATES.missing, why: `its commit ${commit} is not in this history` }
  }
  const files = lines(git(['diff', '--name-only', commit, ...(worktree ? [] : ['HEAD']), '--', ...paths], root)).sort()
  const changed = worktree ? files : lines(git(['log', '--format=%h %s', `${commit}..HEAD`, '--', ...paths], root))
  const fresh = !changed.length
  const state = fresh ? STATES.fresh : STATES.moved
  if (fresh) return { ...base, date, files, state, fresh, why: `measured with ${commit}; the measuring path has not changed since` }
  const count = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`
  const since = worktree
    ? `${count(files.length, 'file')} on the measuring path differ${files.length === 1 ? 's' : ''} in the working tree: ${listed(files, 4)}`
    : `${count(changed.length, 'commit')} since changed the measuring path (latest ${changed[0].slice(0, 90)}; ${count(files.length, 'file')}: ${files.slice(0, 4).join(', ')}${files.length > 4 ? ', …' : ''})`
  return { ...base, date, files, state, fresh, why: `measured with ${commit}; ${since}` }
}

// The first `n` of `items`, and how many more.
function listed (items, n, wrap = x => x) {
  const shown = items.slice(0, n).map(wrap).join(', ')
  return items.length > n ? `${shown}, and ${items.length - n} more` : shown
}

// A table cell: GitHub reads `|` as a column even inside a code span.
const cell = text => String(text).replace(/\|/g, '\\|')

// One row of the index, its links relative to the index's folder.
function indexRow (s, root) {
  const folder = path.posix.relative(path.posix.dirname(INDEX), s.dir.split(path.sep).join('/'))
  const target = fs.existsSync(path.join(root, s.dir, 'report.md')) ? `${folder}/report.md` : `${folder}/`
  const state = s.state === STATES.moved ? `${s.state}: ${listed(s.files, 8, f => `\`${f}\``)}` : s.state
  return `| [${s.dir}](${target}) | ${s.command ? `\`${cell(s.command)}\`` : '—'} | ${s.commit || '—'} | ${s.date || '—'} | ${cell(state)} |`
}

// Each study's state against the working tree, for the index.
const indexStates = (root = ROOT) => findStudies(root).map(f => studyState(f, { root, worktree: true }))

// The text of docs/STUDIES.md: nothing in it depends on when or from which commit it is written, so a test can
// write it again and compare.
function studiesIndex (root = ROOT, states = indexStates(root)) {
  return [
    '# The committed studies',
    '',
    'Every committed study (`docs/**/results.json`): the command that made it, the commit it was measured with and that',
    'commit\'s date, and whether the code on its measuring path (what every measurement runs and what its command runs,',
    '`harness/provenance.js` `measuringPathFor`; not report-only code, which `--from` rebuilds) differs now from that',
    'commit, naming the files that do. A study measured with uncommitted changes, or with a commit this history lacks,',
    'is stale too: nobody can say which code made it. Written by `npm run studies -- --write`; `npm test` fails while',
    'this file differs from what that writes, so a change on a measuring path carries its rows here. `npm run studies`',
    'prints the commits since each study in full, `npm run studies -- --check` is the release check (exit 1 while any',
    'study is stale), and `npm run studies -- --commands` prints the command that reruns each stale one (one at a time,',
    'nothing else on the machine).',
    '',
    `${states.filter(s => s.fresh).length} of ${states.length} studies fresh.`,
    '',
    '| study | command | measured with | commit date | state |',
    '| --- | --- | --- | --- | --- |',
    ...states.map(s => indexRow(s, root)),
    ''
  ].join('\n')
}

// Writes docs/STUDIES.md under `root`; → the states it lists.
function writeIndex (root = ROOT) {
  const why = historyMissing(root)
  if (why) throw new UserError(`cannot write ${INDEX}: ${why}, and the index needs the history to tell what changed since each study`)
  const states = indexStates(root)
  fs.writeFileSync(path.join(root, INDEX), studiesIndex(root, states))
  return states
}

async function main (argv, { root = ROOT } = {}) {
  const options = { check: { type: 'boolean' }, commands: { type: 'boolean' }, write: { type: 'boolean' }, help: { type: 'boolean' } }
  const { values } = usage(() => parseArgs({ args: argv, options }))
  if (values.help) {
    console.log(HELP)
    return 0
  }
  if (values.write) {
    const states = writeIndex(root)
    console.log(`wrote ${INDEX}: ${states.filter(s => s.fresh).length} of ${states.length} studies fresh`)
    // Every guide's verdicts regions (README.md and docs/*.md), each from the report it names.
    const { guidesOf } = require('./readme-figures')
    for (const file of guidesOf(root)) {
      const before = fs.readFileSync(path.join(root, file), 'utf8')
      if (!/^<!--\s*verdicts:/m.test(before)) continue
      const after = rewriteReadme(before, root, file)
      if (after !== before) fs.writeFileSync(path.join(root, file), after)
      console.log(`${file}: its verdicts regions ${after === before ? 'were already' : 'rewritten'} as the reports say`)
    }
    return 0
  }
  const states = findStudies(root).map(f => studyState(f, { root }))
  if (values.commands) {
    for (const s of states.filter(x => !x.fresh && x.command)) console.log(s.command)
    return 0
  }
  for (const s of states) console.log(`${s.fresh ? 'fresh' : 'STALE'}  ${s.dir}: ${s.why}`)
  const stale = states.filter(s => !s.fresh).length
  console.log(`${states.length - stale} of ${states.length} studies fresh${stale ? `; rerun the stale ones (one at a time, nothing else on the machine): npm run studies -- --commands` : ''}`)
  return values.check && stale ? 1 : 0
}

module.exports = { main, studyState, findStudies, rerunCommand, historyMissing, studiesIndex, writeIndex, INDEX, STATES, MEASURING_PATH, REPORT_ROOMS }
