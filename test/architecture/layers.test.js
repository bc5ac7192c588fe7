'use strict'

const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { checkLayers, LAYERS } = require('../support/layers')

const ROOT = path.join(__dirname, '..', '..')

describe('the layers of the source, and inside them what measures and what only reports', () => {
  it('every require() goes to the importing room or a room below it, nothing that measures imports what only reports, and no files import each other in a circle', () => {
    const { problems, graph } = checkLayers(ROOT)
    assert.ok(graph.size > 100, `read ${graph.size} files`)
    assert.deepEqual(problems, [])
  })

  it('names the file, the line and the rule of an import against the layers, and every circle', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'h2bench-layers-'))
    try {
      const write = (file, text) => {
        fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true })
        fs.writeFileSync(path.join(root, file), text)
      }
      write('link/spec.js', "'use strict'\nconst x = require('../server/lanes')\nrequire('./presets')\n")
      write('link/presets.js', "'use strict'\nfunction f () { return require('./spec') }\n")
      write('server/lanes/index.js', "'use strict'\n")
      write('server/app.js', "'use strict'\nrequire('../bin/h2bench')\nrequire('../client/js/page')\nrequire('../shared/stats')\n")
      write('bin/h2bench.js', "'use strict'\nrequire('../server/app')\n")
      write('client/js/page.js', '')
      write('shared/stats.js', '')
      write('bench/run.js', "'use strict'\nrequire('./nowhere')\nrequire('./report/runner/report')\nrequire('./commands/run')\n")
      write('bench/report/runner/report.js', "'use strict'\nrequire('../../run')\n")
      write('bench/commands/run.js', "'use strict'\nrequire('../report/runner/report')\n")
      const { problems } = checkLayers(root)
      assert.deepEqual(problems, [
        `bench/run.js:2: require('./nowhere') names no file`,
        `bench/run.js:3: imports bench/report/runner/report.js, which only reports (bench/report, shared/verdict.js, bin/h2bench-studies.js, bin/h2bench-verdict-calibration.js): what measures must not; move what both need to the measuring side, or join them in bench/commands/`,
        'bench/run.js:4: imports bench/commands/run.js: a command (bench/commands/) is imported by its entry point in bin/ alone',
        'circle: bench/commands/run.js → bench/report/runner/report.js → bench/run.js → bench/commands/run.js: files must not import each other, even through others',
        `link/spec.js:2: imports server/lanes/index.js: link/ (level ${LAYERS.link}) may import only rooms below it, and server/ is level ${LAYERS.server}`,
        'server/app.js:2: imports bin/h2bench.js: nothing imports an entry point (bin/); move what both need into a room below',
        'server/app.js:3: imports client/js/page.js: client/ is the browser\'s; what Node and the page share lives in shared/',
        'circle: bin/h2bench.js → server/app.js → bin/h2bench.js: files must not import each other, even through others',
        'circle: link/presets.js → link/spec.js → link/presets.js: files must not import each other, even through others'
      ].sort((a, b) => a.startsWith('circle') - b.startsWith('circle') || a.localeCompare(b)))
    } finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })
})
