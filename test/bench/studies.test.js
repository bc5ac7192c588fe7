'use strict'

// npm run studies (bench/report/studies/studies.js): a committed study is stale when
// the code a measurement runs changed after the commit it was measured with,
// or when nobody can say which code made it; a change to report-only code is
// a rebuild, not a rerun. On a throw-away git history.
const assert = require('node:assert/strict')
const { throwawayRepo } = require('../support/git-repo')
const { studyState, findStudies, rerunCommand } = require('../../bench/report/studies/studies')
const { gitCommit, measuringPathFor, MEASURING_PATH } = require('../../harness/provenance')

describe('npm run studies: which committed study the code has moved past', () => {
  let root
  // The throw-away repository of the current test (test/support/git-repo.js).
  let repo
  const git = (...args) => repo.git(...args)
  const write = (file, text) => repo.write(file, text)
  const commit = (file, text) => repo.commit(file, text)
  const study = (h2bench, command = 'npm run bench -- rest --network link --out /tmp/study-rest') =>
    commit('docs/study-rest/results.json', JSON.stringify({ environment: { h2bench, command }, results: [] }))

  beforeEach(() => {
    repo = throwawayRepo()
    root = repo.root
    commit('server/app.js', '1')
    commit('bench/report/runner/report-markdown.js', '1')
  })
  afterEach(() => repo.remove())

  it('fresh while only reports, docs and the verdict engine change; stale after a change on the measuring path, naming it', () => {
    const measured = git('rev-parse', '--short', 'HEAD')
    study(`0.1.0 ${measured}`)
    commit('bench/report/runner/report-markdown.js', '2')
    commit('shared/verdict.js', '2')
    commit('README.md', 'words')
    assert.deepEqual(findStudies(root), ['docs/study-rest/results.json'])
    const fresh = studyState('docs/study-rest/results.json', { root })
    assert.equal(fresh.fresh, true, fresh.why)
    const change = commit('bench/cells/rest.js', 'a cell')
    const stale = studyState('docs/study-rest/results.json', { root })
    assert.equal(stale.fresh, false)
    assert.match(stale.why, new RegExp(`^measured with ${measured}; 1 commit since changed the measuring path \\(latest ${change} change bench/cells/rest\\.js; 1 file: bench/cells/rest\\.js\\)$`))
    assert.equal(stale.command, 'npm run bench -- rest --network link --out docs/study-rest')
  })

  it('stale when measured with uncommitted changes, with a commit this history lacks, or with none recorded', () => {
    study(`0.1.0 ${git('rev-parse', '--short', 'HEAD')} (with uncommitted changes)`)
    assert.match(studyState('docs/study-rest/results.json', { root }).why, /uncommitted changes/)
    study('0.1.0 abcdef1')
    assert.match(studyState('docs/study-rest/results.json', { root }).why, /its commit abcdef1 is not in this history/)
    study('0.1.0')
    assert.match(studyState('docs/study-rest/results.json', { root }).why, /no commit recorded/)
  })

  it('a run records its commit as measured with uncommitted changes only when the measuring path has them, naming the files', () => {
    const head = git('rev-parse', '--short', 'HEAD')
    assert.equal(gitCommit({ root }), head)
    write('bench/report/runner/report-markdown.js', 'edited')
    write('README.md', 'edited')
    write('test/x.test.js', 'new')
    assert.equal(gitCommit({ root }), head, 'report-only code, docs and tests are not measured')
    write('server/app.js', 'edited')
    write('bench/cells/new-cell.js', 'untracked')
    assert.equal(gitCommit({ root }), `${head} (with uncommitted changes: bench/cells/new-cell.js, server/app.js)`)
    for (const n of [1, 2, 3, 4]) write(`link/f${n}.js`, 'x')
    assert.match(gitCommit({ root }), /^\w+ \(with uncommitted changes: (\S+, ){3}\S+, and 2 more\)$/)
    study(gitCommit({ root }))
    assert.match(studyState('docs/study-rest/results.json', { root }).why, /uncommitted changes/)
  })

  it('the rerun command writes into the study\'s own folder', () => {
    assert.equal(rerunCommand('npm run soak -- --minutes 30 --out /tmp/x', 'docs/soak'), 'npm run soak -- --minutes 30 --out docs/soak')
    assert.equal(rerunCommand('npm run bench -- all', 'docs/study'), 'npm run bench -- all --out docs/study')
    // Recorded as argv joined by spaces: a shell must not read `|` as a pipe.
    assert.equal(rerunCommand('npm run bench -- interop --cells goodput|blackhole --out x', 'docs/i'), "npm run bench -- interop --cells 'goodput|blackhole' --out docs/i")
    assert.equal(rerunCommand('npm run bench -- corpus --cells clean · page 1|3G · page 6 --link Regular 3G --repeats 5 --out x', 'docs/c'),
      "npm run bench -- corpus --cells 'clean · page 1|3G · page 6' --link 'Regular 3G' --repeats 5 --out docs/c")
    // Recorded as shell words (common/cli.js commandLine): read back word for word, a positional after a value kept apart.
    const { commandLine } = require('../../common/cli')
    const recorded = commandLine('npm run bench', ['corpus', '--link', 'Regular 3G', 'page-cost', '--cells', "it's|b c", '--out', '/tmp/a b'])
    assert.equal(recorded, "npm run bench -- corpus --link 'Regular 3G' page-cost --cells 'it'\\''s|b c' --out '/tmp/a b'")
    assert.equal(rerunCommand(recorded, 'docs/c d'), "npm run bench -- corpus --link 'Regular 3G' page-cost --cells 'it'\\''s|b c' --out 'docs/c d'")
    assert.equal(rerunCommand(commandLine('npm run bench:page', []), 'docs/p'), 'npm run bench:page --out docs/p')
  })

  it('a study depends on the shared rooms and its own command\'s: the soak\'s code does not stale a runner study, nor the runner\'s a soak', () => {
    const measured = git('rev-parse', '--short', 'HEAD')
    study(`0.1.0 ${measured}`)
    commit('docs/soak/results.json', JSON.stringify({ environment: { h2bench: `0.1.0 ${measured}`, command: 'npm run soak -- --minutes 30 --out docs/soak' } }))
    commit('docs/study-pairing/results.json', JSON.stringify({ environment: { h2bench: `0.1.0 ${measured}`, command: 'npm run bench:pairing -- --out x' } }))
    commit('bench/soak/soak-server.js', 'the soak\'s server')
    commit('bin/h2bench-qlog-cost.js', 'another command\'s entry point')
    assert.doesNotMatch(studyState('docs/soak/results.json', { root }).why, /qlog-cost/, 'a command\'s entry point is its own')
    assert.equal(studyState('docs/study-rest/results.json', { root }).fresh, true)
    assert.equal(studyState('docs/study-pairing/results.json', { root }).fresh, true)
    assert.match(studyState('docs/soak/results.json', { root }).why, /changed the measuring path .*bench\/soak\/soak-server\.js/)
    commit('load/tools/h2load.js', 'a load tool')
    assert.equal(studyState('docs/study-rest/results.json', { root }).fresh, false, 'the runner\'s load cells run load/')
    assert.equal(studyState('docs/study-pairing/results.json', { root }).fresh, false)
    const soak = studyState('docs/soak/results.json', { root })
    assert.doesNotMatch(soak.why, /load\/tools/, 'the soak does not run load/')
    // Firefox's harness is measured by a runner study that drives Firefox, not by the soak nor a Chromium study.
    commit('docs/study-ff/results.json', JSON.stringify({ environment: { h2bench: `0.1.0 ${measured}`, command: 'npm run bench -- rest --browser both --out x' } }))
    commit('harness/firefox/h3-plan.js', 'learn h3')
    assert.equal(studyState('docs/soak/results.json', { root }).why.includes('harness/firefox'), false)
    assert.equal(studyState('docs/study-rest/results.json', { root }).why.includes('harness/firefox'), false)
    assert.match(studyState('docs/study-ff/results.json', { root }).why, /harness\/firefox\/h3-plan\.js/)
    // What every measurement runs stales all three:
    commit('server/app.js', '2')
    for (const f of ['docs/study-rest/results.json', 'docs/study-pairing/results.json', 'docs/soak/results.json']) {
      assert.match(studyState(f, { root }).why, /server\/app\.js/, f)
    }
    assert.deepEqual(measuringPathFor('h2bench something else'), MEASURING_PATH, 'an unknown command depends on everything')
  })
})

