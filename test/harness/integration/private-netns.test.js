'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { rerunInPrivateNamespace, PRIVATE_ENV, USERNS_ENV } = require('../../../harness/private-netns')
const { unavailableReason } = require('../../../link/namespace')

describe('harness/private-netns.js: a command started again in a network namespace of its own', function () {
  this.timeout(30000)
  let dir
  before(function () {
    if (process.platform !== 'linux' || unavailableReason()) this.skip()
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-netns-'))
  })
  after(() => dir && fs.rmSync(dir, { recursive: true, force: true }))

  const script = (name, body) => {
    const file = path.join(dir, name)
    fs.writeFileSync(file, body)
    return file
  }

  it('runs the script there once, marked, in another network namespace, and resolves its exit code', async () => {
    const out = path.join(dir, 'seen.json')
    const file = script('seen.js', `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ argv: process.argv.slice(2), env: Boolean(process.env.${PRIVATE_ENV} || process.env.${USERNS_ENV}), ns: require('fs').readlinkSync('/proc/self/ns/net') })); process.exitCode = 7`)
    const code = await rerunInPrivateNamespace(file, ['a', 'b c'])
    assert.equal(code, 7)
    const seen = JSON.parse(fs.readFileSync(out, 'utf8'))
    assert.deepEqual(seen.argv, ['a', 'b c'])
    assert.equal(seen.env, true)
    assert.notEqual(seen.ns, fs.readlinkSync('/proc/self/ns/net'))
  })

  it('a script ended by signal n resolves 128 + n (SIGTERM 143, SIGINT 130, SIGKILL 137), as every command exits', async () => {
    for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130], ['SIGKILL', 137]]) {
      const file = script(`kill-${signal}.js`, `process.removeAllListeners('${signal}'); process.kill(process.pid, '${signal}'); setTimeout(() => {}, 5000)`)
      assert.equal(await rerunInPrivateNamespace(file, []), code, signal)
    }
  })

  it('without root (a user namespace, as npm start --link and h2bench-link use it): the same, 128 + n after a signal', async function () {
    if (process.getuid() !== 0 || spawnSync('setpriv', ['--version']).error) this.skip() // needs root to become nobody
    fs.chmodSync(dir, 0o755)
    const target = script('kill-term.js', "process.kill(process.pid, 'SIGTERM'); setTimeout(() => {}, 5000)")
    const driver = script('driver.js', `require(${JSON.stringify(require.resolve('../../../harness/private-netns'))}).rerunInPrivateNamespace(${JSON.stringify(target)}, []).then(code => { process.stdout.write(String(code)) }, err => { process.stdout.write('error: ' + err.message) })`)
    for (const f of [target, driver]) fs.chmodSync(f, 0o644)
    const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, driver], { encoding: 'utf8', env: { PATH: process.env.PATH } })
    if (/error: |unshare: /.test(r.stdout + r.stderr)) this.skip() // user namespaces not allowed here
    assert.equal(r.stdout, '143', r.stderr)
  })
})

describe('link/namespace.js: a link is built only in a namespace of h2bench\'s own', () => {
  const { inPrivateNamespace, mayBuildHere, currentNetns, PRIVATE_ENV: P, USERNS_ENV: U, openLink, HostNamespaceError } = require('../../../link/namespace')
  const saved = { [P]: process.env[P], [U]: process.env[U] }
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  })

  it('private: marked with the namespace left, and now in another; a mark of this very namespace is no private one', () => {
    delete process.env[P]
    delete process.env[U]
    assert.equal(inPrivateNamespace(), false)
    process.env[P] = 'net:[1]'
    assert.equal(inPrivateNamespace(), true)
    process.env[P] = currentNetns() // inherited by a process that never left
    assert.equal(inPrivateNamespace(), false)
    delete process.env[P]
    process.env[U] = '1' // older callers' mark
    assert.equal(inPrivateNamespace(), true)
  })

  it('never in init\'s namespace; in one h2bench made, or one known not to be init\'s', () => {
    assert.equal(mayBuildHere(false, true), false)
    assert.equal(mayBuildHere(null, false), false) // init's namespace hidden (a container) and no mark: it may be the host's
    assert.equal(mayBuildHere(null, true), true)
    assert.equal(mayBuildHere(true, false), true)
  })

  it('openLink refuses where it may not build, before it touches anything, naming why and how', async function () {
    if (mayBuildHere(undefined, false)) return this.skip() // this namespace is known not to be init's: it would build
    delete process.env[P]
    delete process.env[U]
    await assert.rejects(openLink([]), err => err instanceof HostNamespaceError && /host's network namespace/.test(err.message) && /npm start -- --link, h2bench-link/.test(err.message))
  })
})
