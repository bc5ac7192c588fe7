#!/usr/bin/env node
'use strict'

// npm run bench, h2bench-run: the headless runner (bench/runner/run.js).
const { runCli } = require('../common/cli')
const { main } = require('../bench/runner/run')

runCli('h2bench-run', main)
