#!/usr/bin/env node
'use strict'

// npm run soak: minutes of continuous load in Chromium, the server's memory and descriptors watched (bench/soak/).
const { runCli } = require('../common/cli')
const { main } = require('../bench/commands/soak')

runCli('soak', main)
