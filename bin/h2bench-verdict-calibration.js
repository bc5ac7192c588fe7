#!/usr/bin/env node
'use strict'

// npm run bench:verdict: the verdict engine against simulated experiments whose truth is known (bench/report/verdict-calibration/).
const { runCli } = require('../common/cli')
const { main } = require('../bench/report/verdict-calibration/calibrate')

runCli('bench:verdict', main)
