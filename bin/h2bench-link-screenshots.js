#!/usr/bin/env node
'use strict'

// The link guide's picture (docs/link.md) of what the packet-level link changes against DevTools throttling (bench/link-bench/link-screenshots.js).
const { runCli } = require('../common/cli')
const { main } = require('../bench/link-bench/link-screenshots')

runCli('link-screenshots', main)
