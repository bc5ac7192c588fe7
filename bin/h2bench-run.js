#!/usr/bin/env node
'use strict'

// npm run bench, h2bench-run: the headless runner (bench/commands/run.js: bench/runner/ measures, bench/report/runner/ reports);
// `npm run bench -- record …`: a site recorded into a HAR for the replay (bench/commands/record.js).
const { runCli } = require('../common/cli')
const { main } = require('../bench/commands/run')
const record = require('../bench/commands/record')

if (process.argv[2] === 'record') runCli('h2bench-run record', argv => record.main(argv), { argv: process.argv.slice(3) })
else runCli('h2bench-run', main)
