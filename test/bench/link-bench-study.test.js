'use strict'

// npm run bench:link as a study (bench/report/link-bench/study.js): --out's
// results.json names the command, the code and the date; --from writes the
// same report again from it without measuring; a record --save wrote before
// --out existed converts to one; its measuring path is its own.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { runNode } = require('../support/run-node')
const { parseOptions, commandOf, environmentOf } = require('../../bench/link-bench/link-bench')
const { studyRecord, reportMarkdown, writeStudy } = require('../../bench/report/link-bench/study')
const { measuringPathFor, MEASURING_PATH } = require('../../harness/provenance')

const { version } = require('../../package.json')

const ROOT = path.join(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'h2bench-link-bench.js')
const STUDY = path.join(ROOT, 'docs', 'studies', 'link-bench')

describe('npm run bench:link as a study (--out, --from)', () => {
  let tmp
  beforeEach(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-link-bench-')) })
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('the committed study: --from rebuilds its report.md byte for byte from its results.json, measuring nothing', async () => {
    const r = await runNode(BIN, ['--from', path.join(STUDY, 'results.json'), '--out', tmp])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /^bench:link {2}2026-11-26T07:49:50\.964Z {2}commit 6ac266e /)
    assert.equal(fs.readFileSync(path.join(tmp, 'report.md'), 'utf8'), fs.readFileSync(path.join(STUDY, 'report.md'), 'utf8'))
    assert.equal(fs.readFileSync(path.join(tmp, 'results.json'), 'utf8'), fs.readFileSync(path.join(STUDY, 'results.json'), 'utf8'))
  })

  it('the committed study\'s results.json names the command that made it, the code and the date', () => {
    const record = JSON.parse(fs.readFileSync(path.join(STUDY, 'results.json'), 'utf8'))
    assert.equal(record.tool, 'h2bench bench:link')
    assert.equal(record.environment.command, 'npm run bench:link -- --effects all')
    assert.equal(record.environment.h2bench, '0.1.0 6ac266e')
    assert.equal(record.environment.date, '2026-11-26T07:49:50.964Z')
    const report = fs.readFileSync(path.join(STUDY, 'report.md'), 'utf8')
    for (const line of ['- Measured: 2026-11-26T07:49:50.964Z, `npm run bench:link -- --effects all`', '- Code: h2bench 0.1.0 6ac266e']) {
      assert.ok(report.includes(line), line)
    }
  })

  it('a run\'s environment: the command as run, the code (h2bench: version and commit), the machine and the date', () => {
    // The commit and Python as git and python3 would say (the slow smoke test asks them: a unit test runs no program).
    const given = { commit: 'abc1234 (with uncommitted changes: link/spec.js)', python: 'Python 3.11.7' }
    const env = environmentOf(['--effects', 'all', '--out', 'docs/studies/link-bench'], given)
    assert.equal(env.command, 'npm run bench:link -- --effects all --out docs/studies/link-bench')
    assert.equal(env.h2bench, `${version} abc1234 (with uncommitted changes: link/spec.js)`)
    assert.equal(env.python, 'Python 3.11.7')
    assert.ok(!Number.isNaN(Date.parse(env.date)))
    for (const key of ['node', 'cpu', 'cpus', 'os', 'kernel', 'loadAverage']) assert.ok(env[key] !== undefined, key)
    assert.equal(environmentOf([], given).command, 'npm run bench:link')
    assert.equal(environmentOf([], { commit: null, python: null }).h2bench, version, 'outside a git checkout: the version alone')
  })

  it('a record --save wrote converts: its provenance the environment, the command from its options, the figures untouched', () => {
    const study = JSON.parse(fs.readFileSync(path.join(STUDY, 'results.json'), 'utf8'))
    // The record as --save wrote it: `provenance` (no command) where the study has `environment`, `tool` and `converted`.
    const legacy = Object.fromEntries(Object.entries(study).filter(([k]) => !['tool', 'environment', 'converted'].includes(k)))
    const provenance = { ...study.environment }
    delete provenance.command
    Object.assign(legacy, { provenance })
    const record = studyRecord(legacy, { from: 'docs/link-bench-effects.json', commandOf })
    assert.deepEqual(record, study)
    assert.equal(reportMarkdown(record), fs.readFileSync(path.join(STUDY, 'report.md'), 'utf8'))
    // A study's record is taken as it is; one of neither kind is refused, naming what it lacks.
    assert.equal(studyRecord(study, { commandOf }), study)
    assert.throws(() => studyRecord({ options: {} }, { from: 'x.json', commandOf }), /--from x\.json is not a bench:link record \(missing environment, goals, setup, paths, summary, runs\)/)
  })

  it('the command read from options: what differs from the defaults, --effects all for every effect', () => {
    const base = { duration: 5, warmup: 1, repeats: 3, delay: 10, paths: ['veth', 'c', 'python'], smoke: false, effects: null, json: false, save: 'x.json' }
    assert.equal(commandOf(base), 'npm run bench:link')
    assert.equal(commandOf({ ...base, repeats: 5, duration: 10, paths: ['veth', 'c'] }), 'npm run bench:link -- --duration 10 --repeats 5 --paths veth,c')
    assert.equal(commandOf({ ...base, paths: ['c'], effects: ['none', 'codel'] }), 'npm run bench:link -- --effects none,codel')
    assert.equal(commandOf({ ...parseOptions(['--smoke', '--effects', 'all']) }), 'npm run bench:link -- --effects all --smoke')
    assert.equal(commandOf(parseOptions(['--delay', '20'])), 'npm run bench:link -- --delay 20')
  })

  it('--from measures nothing: measuring options are refused, and a record not named results.json needs --out', () => {
    assert.throws(() => parseOptions(['--from', 'd/results.json', '--smoke']), /--from measures nothing: leave out --smoke/)
    assert.throws(() => parseOptions(['--from', 'd/results.json', '--effects', 'all']), /leave out --effects/)
    assert.throws(() => parseOptions(['--from', 'old.json']), /--from old\.json is not a study's results\.json: name the study's folder with --out/)
    assert.equal(parseOptions(['--from', 'old.json', '--out', 'd']).out, 'd')
    assert.equal(parseOptions(['--out', 'd', '--smoke']).out, 'd')
  })

  it('--from writes the study beside its results.json by default, the same files again', async () => {
    const record = JSON.parse(fs.readFileSync(path.join(STUDY, 'results.json'), 'utf8'))
    writeStudy(tmp, { ...record, runs: record.runs.filter(r => r.load.startsWith('none:') || r.load.startsWith('codel:')), options: { ...record.options, effects: ['none', 'codel'] } })
    const before = fs.readFileSync(path.join(tmp, 'report.md'), 'utf8')
    fs.rmSync(path.join(tmp, 'report.md'))
    const r = await runNode(BIN, ['--from', path.join(tmp, 'results.json'), '--json'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(JSON.parse(r.stdout).environment.command, 'npm run bench:link -- --effects all')
    assert.equal(fs.readFileSync(path.join(tmp, 'report.md'), 'utf8'), before)
    assert.match(before, /^codel +up=400mbit,aqm\.up=codel +400 /m)
    assert.doesNotMatch(before, /^jitter/m)
  })

  it('its measuring path: the shared rooms, its entry point and bench/link-bench, not its report writer nor the screenshots', () => {
    const spec = measuringPathFor('npm run bench:link -- --effects all --out docs/studies/link-bench')
    assert.notDeepEqual(spec, MEASURING_PATH)
    for (const room of ['bin/h2bench-link-bench.js', 'bench/link-bench', 'link', 'harness']) assert.ok(spec.includes(room), room)
    for (const room of ['load', 'bench/runner', 'bin/h2bench-run.js']) assert.ok(!spec.includes(room), room)
    assert.ok(spec.includes('bench/commands/link-bench.js'))
    assert.ok(spec.includes(':(exclude,glob)bench/report/**')) // its study writer: bench/report/link-bench/study.js
    assert.ok(spec.includes(':(exclude)bench/link-bench/link-screenshots.js'))
  })
})
