'use strict'

// The index of the studies (npm run studies -- --write, docs/STUDIES.md): a
// row a study, naming the files on its measuring path that differ from its
// commit in the working tree, committed or not, and never a commit made after
// it. On a throw-away git history.
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { throwawayRepo } = require('../support/git-repo')
const { studiesIndex, studyState, historyMissing, main, INDEX } = require('../../bench/report/studies/studies')

describe('npm run studies -- --write: the index of the studies', () => {
  let root, measured
  // The throw-away repository of the current test (test/support/git-repo.js).
  let repo
  const git = (...args) => repo.git(...args)
  const write = (file, text) => repo.write(file, text)
  const commit = (file, text) => repo.commit(file, text)
  const study = (h2bench, dir = 'docs/x') =>
    commit(`${dir}/results.json`, JSON.stringify({ environment: { h2bench, command: 'npm run bench -- rest --network link --out /tmp/x' }, results: [] }))
  // The index's row of docs/x.
  const row = () => studiesIndex(root).split('\n').find(l => l.startsWith('| [docs/x]'))

  beforeEach(() => {
    repo = throwawayRepo()
    root = repo.root
    commit('server/app.js', '1')
    commit('link/netem.js', '1')
    measured = commit('bench/report/runner/report-markdown.js', '1')
    study(`0.1.0 ${measured}`)
  })
  afterEach(() => repo.remove())

  it('fresh, then names exactly the measuring-path files changed since (committed or not), never the report-only ones nor a later commit', () => {
    const date = git('show', '-s', '--format=%cs', measured)
    assert.equal(row(), `| [docs/x](x/) | \`npm run bench -- rest --network link --out docs/x\` | ${measured} | ${date} | fresh |`)
    const later = [commit('server/app.js', '2'), commit('bench/report/runner/report-markdown.js', '2'), commit('README.md', 'words')]
    assert.equal(row(), `| [docs/x](x/) | \`npm run bench -- rest --network link --out docs/x\` | ${measured} | ${date} | the measuring path moved since: \`server/app.js\` |`)
    write('link/netem.js', 'edited, not committed')
    write('bench/report/runner/report-markdown.js', 'edited, not committed')
    assert.match(row(), /\| the measuring path moved since: `link\/netem\.js`, `server\/app\.js` \|$/)
    for (const c of later) assert.ok(!studiesIndex(root).includes(c), `the index names no commit made after the study (${c})`)
    // Put back as measured: fresh again, though commits since touched the path.
    write('link/netem.js', '1')
    commit('server/app.js', '1')
    assert.match(row(), /\| fresh \|$/)
    assert.match(studyState('docs/x/results.json', { root }).why, /2 commits since changed the measuring path/, 'npm run studies still counts the commits to HEAD')
  })

  it('lists the first eight files, and how many more; links a study\'s report when it has one', () => {
    for (let n = 1; n <= 10; n++) write(`link/f${String(n).padStart(2, '0')}.js`, 'x')
    git('add', '-A')
    assert.match(row(), /moved since: `link\/f01\.js`, (`link\/f0\d\.js`, ){6}`link\/f08\.js`, and 2 more \|$/)
    write('docs/x/report.md', '# x')
    assert.match(row(), /^\| \[docs\/x\]\(x\/report\.md\) \|/)
  })

  it('says when no commit is recorded, the study was measured with uncommitted changes, or its commit is not in this history', () => {
    study(`0.1.0 ${measured} (with uncommitted changes: server/app.js)`)
    assert.match(row(), new RegExp(`\\| ${measured} \\| — \\| uncommitted changes \\|$`))
    study('0.1.0 abcdef1')
    assert.match(row(), /\| abcdef1 \| — \| commit not in this history \|$/)
    study('0.1.0')
    assert.match(row(), /\| — \| — \| no commit recorded \|$/)
  })

  it('--write writes the same bytes every time; the index is not written without the history', async () => {
    const log = console.log
    const said = []
    console.log = line => said.push(line)
    try {
      assert.equal(await main(['--write'], { root }), 0)
    } finally {
      console.log = log
    }
    assert.deepEqual(said, [`wrote ${INDEX}: 1 of 1 studies fresh`])
    const first = fs.readFileSync(path.join(root, INDEX), 'utf8')
    assert.equal(first, studiesIndex(root))
    assert.match(first, /npm run studies -- --write/)
    // The index itself is not on any measuring path, so writing it changes nothing it lists.
    git('add', '-A')
    git('commit', '-q', '-m', 'index')
    assert.equal(studiesIndex(root), first)

    assert.equal(historyMissing(root), null)
    const shallow = `${root}-shallow`
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${root}`, shallow], { stdio: 'ignore' })
    try {
      assert.equal(historyMissing(shallow), 'this clone is shallow')
      await assert.rejects(main(['--write'], { root: shallow }), /cannot write docs\/STUDIES\.md: this clone is shallow/)
    } finally {
      fs.rmSync(shallow, { recursive: true, force: true })
    }
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-no-git-'))
    try {
      assert.equal(historyMissing(bare), 'this checkout is not a git repository')
    } finally {
      fs.rmSync(bare, { recursive: true, force: true })
    }
  })
})
