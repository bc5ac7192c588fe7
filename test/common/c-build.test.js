'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { cBuilder, findCompiler } = require('../../common/c-build')
const { BuildError } = require('../../common/errors')

// The one way h2bench builds its C (the link's forwarder, the site splice).
describe('common/c-build.js: a C program built once per version of its sources', function () {
  let dir
  before(function () {
    if (!findCompiler()) this.skip()
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-c-build-'))
  })
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }) })

  function program (text) {
    const source = path.join(dir, 'hello.c')
    fs.writeFileSync(source, text)
    return cBuilder({ name: 'hello', binary: 'hello', sources: [source], needs: 'this test', what: 'hello.c', cache: path.join(dir, 'cache') })
  }

  it('builds on first use, reuses the binary after, and builds anew when a source changes', () => {
    const first = program('#include <stdio.h>\nint main(void) { puts("one"); return 0; }\n')
    const built = first.ensure()
    assert.equal(execFileSync(built, { encoding: 'utf8' }), 'one\n')
    assert.ok(built.startsWith(path.join(dir, 'cache', 'hello') + path.sep), built)
    const stamp = fs.statSync(built).mtimeMs
    assert.equal(first.ensure(), built)
    assert.equal(fs.statSync(built).mtimeMs, stamp, 'a second ensure() did not rebuild')
    assert.deepEqual(fs.readdirSync(path.dirname(built)), ['hello'], 'no temporary file left beside it')

    const second = program('#include <stdio.h>\nint main(void) { puts("two"); return 0; }\n')
    const rebuilt = second.ensure()
    assert.notEqual(rebuilt, built, 'an edited source has its own folder')
    assert.equal(execFileSync(rebuilt, { encoding: 'utf8' }), 'two\n')
  })

  it("a source that does not compile is a BuildError carrying the compiler's words", () => {
    const broken = program('int main(void) { return not_declared; }\n')
    assert.throws(() => broken.ensure(), err => {
      assert.ok(err instanceof BuildError, err)
      assert.equal(err.missing, false, 'a compiler was there')
      assert.match(err.message, /^building hello\.c with \S+ failed: /)
      assert.match(err.message, /not_declared/)
      return true
    })
  })
})
