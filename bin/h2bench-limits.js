#!/usr/bin/env node
'use strict'

// npm run limits: how large a page batch each lane and the local Chromium sustain (bench/limits/).
const { runCli } = require('../common/cli')
const { main } = require('../bench/limits/limits')

runCli('h2bench limits', main)
