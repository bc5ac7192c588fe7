'use strict'

// What h2bench load builds before it starts itself again in its private
// namespace (harness/build-then-rerun.js): oha only when a lane it will run
// is loaded with oha. `npm run load -- --preset ab-vs-nghttp --lanes h1,h2`
// built oha for five minutes although neither lane uses it.
const assert = require('node:assert/strict')
const { parseLoadArgs, toolsToRun } = require('../../load/cli')

describe('h2bench load: the tools a run will use, before anything is built', () => {
  const tools = argv => toolsToRun(parseLoadArgs(argv))

  it('a preset that names oha for HTTP/3 needs no oha when no HTTP/3 lane runs', () => {
    assert.deepEqual(tools(['--preset', 'ab-vs-nghttp', '--lanes', 'h1,h2']), ['ab', 'nghttp'])
    assert.ok(!tools(['--preset', 'ab-vs-nghttp', '--lanes', 'h1,h2']).includes('oha'))
  })

  it('oha where a lane will run with it: the h3 lane, every lane by default, or a lane given --tool oha', () => {
    assert.deepEqual(tools(['--preset', 'ab-vs-nghttp', '--lanes', 'h1,h3']), ['ab', 'oha'])
    assert.ok(tools([]).includes('oha'))
    assert.deepEqual(tools(['--lanes', 'h2n', '--tool', 'h2n=oha']), ['oha'])
    assert.deepEqual(tools(['--lanes', 'h1,h2n']), ['h2load', 'h2load'])
  })

  it('a tool that cannot load a lane builds nothing for it (the run names the mistake)', () => {
    assert.deepEqual(tools(['--lanes', 'h1', '--tool', 'h1=nghttp']), [null])
  })
})
