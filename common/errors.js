'use strict'

// Errors the user can act on: a bad query or flag, a port in use, a tool or
// a browser that is not installed, a machine that cannot build a link. They
// follow the http-errors convention that Express already reads: `status`
// (400 for what the user typed or asked, 409 for a conflict such as a port in
// use, 503 for something this machine lacks, 500 for a run that failed),
// a stable `code`, and `expose: true` (the message is written for the user,
// one line, no stack). The server's error middleware answers them with their
// status and message, and every command line prints them as one line and
// exits by common/cli.js's convention; any other error is a bug, and shows
// its stack.
class UserError extends Error {
  constructor (message, { status = 500, code = 'H2B_FAILED', param = null, ...options } = {}) {
    super(message, options)
    this.name = new.target.name
    this.status = status
    this.code = code
    this.param = param
    this.expose = true
  }
}

// What the user typed or asked is wrong (bad query, bad flag): 400.
class InputError extends UserError {
  constructor (message, { param = null, status = 400, code = 'H2B_BAD_INPUT', ...options } = {}) {
    super(message, { param, status, code, ...options })
  }
}

// A command line the command cannot run (unknown flag, bad value): 400.
class UsageError extends InputError {
  constructor (message, options = {}) {
    super(message, { code: 'H2B_USAGE', ...options })
  }
}

// Something this machine lacks that a build needs (a compiler, Go, cargo):
// `missing` when no such tool is there at all or it is too old (callers may go
// on without the program), else the build itself failed.
class BuildError extends UserError {
  constructor (message, { goMissing = false, missing = goMissing, ...options } = {}) {
    super(message, { status: missing ? 503 : 500, code: missing ? 'H2B_BUILD_TOOL_MISSING' : 'H2B_BUILD_FAILED', ...options })
    this.missing = missing
    this.goMissing = missing
  }
}

const isUserError = err => Boolean(err && err.expose === true && typeof err.status === 'number')

module.exports = { UserError, InputError, UsageError, BuildError, isUserError }
