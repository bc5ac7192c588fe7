#!/usr/bin/env node
'use strict'

// npm run bench:server: h2load against every lane (bench/server-bench/).
const { runCli } = require('../common/cli')
const { main } = require('../bench/server-bench/server-bench')

runCli('bench:server', main)
