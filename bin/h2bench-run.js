#!/usr/bin/env node
'use strict'

// npm run bench, h2bench-run: the headless runner (bench/commands/run.js: bench/runner/ measures, bench/report/runner/ reports).
const { runCli } = require('../common/cli')
const { main } = require('../bench/commands/run')

runCli('h2bench-run', main)
