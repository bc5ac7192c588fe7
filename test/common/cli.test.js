'use strict'

const assert = require('node:assert/strict')
const { spawn } = require('node:child_process')
const { exitCodeOf, errorLine, signalExitCode, runCli, EXIT, commandLine, shellWords } = require('../../common/cli')
const { UserError, InputError, UsageError, BuildError, isUserError } = require('../../common/errors')

describe('common/errors.js and common/cli.js: one error family, one exit-code convention', () => {
  it('errors the user can act on carry status, code and expose (the http-errors convention)', () => {
    const cases = [
      [new InputError('size must be …', { param: 'size' }), 400, 'H2B_BAD_INPUT'],
      [new UsageError('unknown flag'), 400, 'H2B_USAGE'],
      [new UserError('port 3001 is in use', { status: 409, code: 'H2B_PORT_UNAVAILABLE' }), 409, 'H2B_PORT_UNAVAILABLE'],
      [new BuildError('no go command', { missing: true }), 503, 'H2B_BUILD_TOOL_MISSING'],
      [new BuildError('go build failed'), 500, 'H2B_BUILD_FAILED']
    ]
    for (const [err, status, code] of cases) {
      assert.equal(err.status, status, err.message)
      assert.equal(err.code, code, err.message)
      assert.equal(err.expose, true)
      assert.ok(isUserError(err))
      assert.ok(err instanceof UserError && err instanceof Error)
    }
    assert.equal(new InputError('x', { param: 'size' }).param, 'size')
    assert.equal(new UsageError('x').name, 'UsageError')
    assert.ok(new UsageError('x') instanceof InputError)
    assert.equal(new BuildError('x', { missing: true }).missing, true)
    assert.equal(isUserError(new Error('a bug')), false)
  })

  it('usage 2 (status 400), a run that failed 1, a signal 128 + n', () => {
    assert.equal(exitCodeOf(new UsageError('bad flag')), EXIT.USAGE)
    assert.equal(exitCodeOf(new InputError('bad value')), 2)
    assert.equal(exitCodeOf(new UserError('port in use', { status: 409 })), 1)
    assert.equal(exitCodeOf(new BuildError('no cargo', { missing: true })), 1)
    assert.equal(exitCodeOf(new TypeError('a bug')), 1)
    assert.equal(exitCodeOf({ status: 400 }), 1, 'not exposed: not the user\'s')
    assert.deepEqual(['SIGHUP', 'SIGINT', 'SIGKILL', 'SIGTERM'].map(signalExitCode), [129, 130, 137, 143])
  })

  it('a user error is one line, anything else shows its stack', () => {
    assert.equal(errorLine('h2bench load', new UsageError('-n must be 1…1000000; got 0')), 'h2bench load: -n must be 1…1000000; got 0')
    const bug = new TypeError('x is undefined')
    assert.equal(errorLine('h2bench', bug), `h2bench: ${bug.stack}`)
  })

  it('runCli: the exit code main resolves, or the convention\'s for what it threw', async () => {
    const saved = process.exitCode
    const writes = []
    const write = process.stderr.write
    process.stderr.write = chunk => { writes.push(String(chunk)); return true }
    try {
      await runCli('cmd', async (argv, { entry }) => { assert.deepEqual(argv, ['a']); assert.equal(entry, '/x/bin/cmd.js'); return 7 }, { argv: ['a'], entry: '/x/bin/cmd.js' })
      assert.equal(process.exitCode, 7)
      await runCli('cmd', () => {}, { argv: [] })
      assert.equal(process.exitCode, 0)
      await runCli('cmd', async () => ({ rows: [] }), { argv: [] })
      assert.equal(process.exitCode, 0, 'a main that resolves its result, not a code')
      await runCli('cmd', () => { throw new UsageError('unknown flag --x') }, { argv: [] })
      assert.equal(process.exitCode, 2)
      await runCli('cmd', async () => { throw new UserError('no Chrome', { status: 503 }) }, { argv: [] })
      assert.equal(process.exitCode, 1)
    } finally {
      process.stderr.write = write
      process.exitCode = saved
    }
    assert.deepEqual(writes, ['cmd: unknown flag --x\n', 'cmd: no Chrome\n'])
  })

  it('runCli in a process of its own: stopped by a signal, 128 + its number', async () => {
    const script = `require(${JSON.stringify(require.resolve('../../common/cli'))}).runCli('x', () => new Promise(() => { setInterval(() => {}, 1000); process.stdout.write('up\\n') }))`
    for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]]) {
      const child = spawn(process.execPath, ['-e', `${script}; for (const s of ['SIGINT','SIGTERM']) process.once(s, () => process.exit(require(${JSON.stringify(require.resolve('../../common/cli'))}).signalExitCode(s)))`], { stdio: ['ignore', 'pipe', 'inherit'] })
      await new Promise(resolve => child.stdout.once('data', resolve))
      child.kill(signal)
      const got = await new Promise(resolve => child.once('exit', c => resolve(c)))
      assert.equal(got, code, signal)
    }
  })

  it('a recorded command line is shell words: what needs quoting quoted, read back to the same arguments', () => {
    const argv = ['corpus', '--cells', 'clean · page 1|3G · page 6', '--link', 'Regular 3G', '--out', "/tmp/it's", '', '--repeats', '5', 'a\\b', '$HOME']
    const line = commandLine('npm run bench', argv)
    assert.equal(line, "npm run bench -- corpus --cells 'clean · page 1|3G · page 6' --link 'Regular 3G' --out '/tmp/it'\\''s' '' --repeats 5 'a\\b' '$HOME'")
    assert.deepEqual(shellWords(line).map(w => w.word), ['npm', 'run', 'bench', '--', ...argv])
    assert.deepEqual(shellWords(line).filter(w => w.quoted).map(w => w.word), ['clean · page 1|3G · page 6', 'Regular 3G', "/tmp/it's", '', 'a\\b', '$HOME'])
    assert.equal(commandLine('npm run bench:page', []), 'npm run bench:page')
    assert.deepEqual(shellWords(' a  "b c"d\\ e ').map(w => w.word), ['a', 'b cd e'])
    assert.throws(() => shellWords("--cells 'a|b"), /an unclosed ' in: --cells 'a\|b/)
  })
})
