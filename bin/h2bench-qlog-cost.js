#!/usr/bin/env node
'use strict'

// npm run bench:qlog-cost: what the edge's qlog costs the h3 lane (bench/qlog-cost/).
const { runCli } = require('../common/cli')
const { main } = require('../bench/commands/qlog-cost')

runCli('bench:qlog-cost', main)
