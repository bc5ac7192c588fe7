#!/usr/bin/env node
'use strict'

// npm run bench:pairing: what pairing the link's seeds removes from an h1 ÷ h3 ratio (bench/pairing/).
const { runCli } = require('../common/cli')
const { main } = require('../bench/commands/pairing')

runCli('bench:pairing', main)
