#!/usr/bin/env node
'use strict'

// npm run load, h2bench load: the lanes under the standard load tools (load/cli.js).
const { runCli } = require('../common/cli')
const { main } = require('../load/cli')

runCli('h2bench load', main)
