#!/usr/bin/env node
'use strict'

// npm run bench:link: the packet-level link's forwarder against the kernel's path and a Python one (bench/link-bench/).
const { runCli } = require('../common/cli')
const { main } = require('../bench/commands/link-bench')

runCli('bench:link', main) // main(argv, { entry }): it starts this script again in a namespace of its own
