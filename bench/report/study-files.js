'use strict'

// A study on disk, as every tool that writes one keeps it: <dir>/results.json (the record) and <dir>/report.md
// (written from the record alone), and the record read back for --from.
const fs = require('node:fs')
const path = require('node:path')
const { UsageError } = require('../../common/errors')

// The JSON at `file` (--from's): a UsageError naming the file when it is missing or not JSON.
function readResults (file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    throw new UsageError(`--from ${file}: ${err.code === 'ENOENT' ? 'no such file' : `not JSON (${err.message})`}`)
  }
}

// <dir>/results.json and <dir>/report.md; → their paths.
function writeStudyFiles (dir, record, markdown) {
  fs.mkdirSync(dir, { recursive: true })
  const files = [path.join(dir, 'results.json'), path.join(dir, 'report.md')]
  fs.writeFileSync(files[0], `${JSON.stringify(record, null, 2)}\n`)
  fs.writeFileSync(files[1], markdown)
  return files
}

module.exports = { readResults, writeStudyFiles }
