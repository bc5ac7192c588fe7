'use strict'

// One exit-code convention for every command of h2bench (npm start, npm run
// bench, h2bench load, h2bench-link, soak, limits, the benchmarks):
//   0        done
//   1        the run failed: a port in use, a tool or browser missing, a
//            build or a measurement that failed, a bug
//   2        usage: what was typed is wrong (an error with status 400)
//   128 + n  stopped by signal n (SIGINT 130, SIGTERM 143, SIGHUP 129)
// An error the user can act on (common/errors.js: expose) is one line,
// `<command>: <message>`; any other error is a bug and prints its stack.

const os = require('node:os')
const { isUserError, UsageError } = require('./errors')

const EXIT = Object.freeze({ OK: 0, FAILED: 1, USAGE: 2 })

const signalExitCode = signal => 128 + (os.constants.signals[signal] || 0)

function exitCodeOf (err) {
  return isUserError(err) && err.status === 400 ? EXIT.USAGE : EXIT.FAILED
}

function errorLine (command, err) {
  return `${command}: ${isUserError(err) ? err.message : (err && err.stack) || err}`
}

// Runs `main(argv, { entry })` of a command started from bin/: the number it
// resolves is the exit code (anything else, 0); a throw is reported by the
// convention above.
// `entry` is the script that was started, for a command that starts itself
// again (in a private network namespace).
function runCli (command, main, { argv = process.argv.slice(2), entry = process.argv[1] } = {}) {
  return Promise.resolve()
    .then(() => main(argv, { entry }))
    .then(code => {
      process.exitCode = Number.isInteger(code) ? code : 0
    }, err => {
      process.stderr.write(errorLine(command, err) + '\n')
      process.exitCode = exitCodeOf(err)
    })
}

// fn() (node:util's parseArgs, say), its errors made UsageErrors with the same message.
function usage (fn) {
  try {
    return fn()
  } catch (err) {
    if (err instanceof UsageError) throw err
    throw new UsageError(err.message, { cause: err })
  }
}

// A --url given on a command line: an https:// page, its href; else a UsageError naming it, and `why` https is needed.
function httpsUrl (raw, why) {
  let u
  try {
    u = new URL(raw)
  } catch {
    throw new UsageError(`--url "${raw}" is not a URL; give the page's https:// address, e.g. https://example.com/`)
  }
  if (u.protocol !== 'https:') throw new UsageError(`--url ${raw}: ${why}; got ${u.protocol}`)
  return u.href
}

// One argument as a shell takes it back: as it is when it holds only [A-Za-z0-9_@%+=:,./-], else in single quotes
// (a quote inside as '\'').
const shellWord = arg => /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`

// The command line a study records (results.json's environment.command) and a shell can run again: `prefix`
// (`npm run bench`, say), then ` -- ` and the arguments as given, each a shell word.
const commandLine = (prefix, argv) => argv.length ? `${prefix} -- ${argv.map(shellWord).join(' ')}` : prefix

// The words of a line made by commandLine (or typed): split at blanks outside single or double quotes, the quotes
// taken away; a backslash outside quotes keeps the next character. → [{ word, quoted }], `quoted` when any part of
// the word was in quotes.
function shellWords (line) {
  const words = []
  let word = null
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (/\s/.test(c)) {
      if (word !== null) words.push({ word, quoted })
      word = null
      quoted = false
      continue
    }
    if (word === null) word = ''
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1)
      if (end < 0) throw new UsageError(`an unclosed ${c} in: ${line}`)
      word += line.slice(i + 1, end)
      quoted = true
      i = end
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i]
    } else {
      word += c
    }
  }
  if (word !== null) words.push({ word, quoted })
  return words
}

module.exports = { runCli, usage, httpsUrl, commandLine, shellWord, shellWords, exitCodeOf, errorLine, signalExitCode, EXIT }
