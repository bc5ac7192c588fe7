#!/usr/bin/env node
'use strict'

// npm run bench:page: the browser CPU of the page's measuring path against a bare fetch() (bench/page-cost/).
const { runCli } = require('../common/cli')
const { main } = require('../bench/commands/page-cost')

runCli('bench:page', main)
