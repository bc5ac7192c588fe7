#!/usr/bin/env node
'use strict'

// npm run studies: which committed study was measured with code that has changed since (bench/report/studies/).
const { runCli } = require('../common/cli')
const { main } = require('../bench/report/studies/studies')

runCli('studies', main)
