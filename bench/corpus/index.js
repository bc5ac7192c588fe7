'use strict'

// The corpus of generated pages (issue 32): page i of a seed is a HAR in h2bench's record format, drawn from the
// HTTP Archive / Web Almanac figures of ./distributions.js (./page.js plans it, ./har.js writes it), so
// server/replay serves it as it serves a recorded site. The same seed gives byte-identical HARs. The corpus
// experiment (bench/experiments/corpus.js) plans its cells from planPage alone; each HAR is written when its
// cell runs (corpusHarFile: bench/cells/replay.js), into the run's out folder.
const fs = require('node:fs')
const path = require('node:path')
const { planPage } = require('./page')
const { harOf } = require('./har')
const { makeTempFolder } = require('../../common/temp-folders')

// The HAR text of page `index` of corpus `seed` (`at`: both quantiles forced, e.g. 0.1 for a small page).
function pageHarText (seed, index, { at = null } = {}) {
  return JSON.stringify(harOf(planPage(seed, index, { at })))
}

// This process's throw-away folder (h2bench-corpus-<pid>-…, swept by the next one once this process is gone),
// made once.
let own = null
const ownFolder = () => own && fs.existsSync(own) ? own : (own = makeTempFolder('h2bench-corpus-'))

// Writes pages [{ index, at? }] of corpus `seed` into `dir` (default: this process's throw-away folder; a page
// written again is the same bytes) → [{ index, file, url, requests, bytes }].
function writeCorpus (seed, pages, { dir = null } = {}) {
  const folder = dir || ownFolder()
  return pages.map(({ index, at = null }) => {
    const plan = planPage(seed, index, { at })
    const file = path.join(folder, `corpus-${seed}-${index + 1}${at === null ? '' : `-at-p${Math.round(at * 100)}`}.har`)
    const har = harOf(plan)
    fs.writeFileSync(file, JSON.stringify(har))
    return { index, file, url: plan.url, requests: har.log.entries.length, bytes: bodyBytesOf(har) }
  })
}

// A corpus cell's HAR file (`corpus`: { seed, index, at }, bench/experiments/corpus.js), written when the cell runs
// into `dir` (the run's out folder: kept beside the results that replayed it) or this process's throw-away folder.
function corpusHarFile ({ seed, index, at = null }, dir = null) {
  if (dir) fs.mkdirSync(dir, { recursive: true })
  return writeCorpus(seed, [{ index, at }], { dir })[0].file
}

// The body bytes of a HAR's entries in all (document and resources).
const bodyBytesOf = har => har.log.entries.reduce((n, e) => n + e.response.content.size, 0)

module.exports = { pageHarText, writeCorpus, corpusHarFile, bodyBytesOf, planPage, harOf }
