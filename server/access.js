'use strict'

// Who may read a lane's internals (its connection ledgers, push and REST
// counters) and change the page server's state (the link): anyone on
// loopback; beyond loopback (--host 0.0.0.0, --lanes-only for a client on
// another machine) only whoever has the token printed at start, given as
// ?token=… or the X-H2bench-Token header. What any client may do stays as
// it is (GET /option and the other measured routes, within the stated limits:
// server/payload.js's LIMITS); nothing is proxied: a lane is no relay.
const crypto = require('node:crypto')

const newToken = () => crypto.randomBytes(16).toString('hex')

function tokenOf (req) {
  const given = req.get('x-h2bench-token') || (typeof req.query.token === 'string' ? req.query.token : '')
  return given || null
}

// Compared in constant time: a wrong guess learns nothing from how long the answer took.
function matches (given, token) {
  const a = Buffer.from(String(given))
  const b = Buffer.from(token)
  return a.length === b.length && crypto.timingSafeEqual(a, b)
}

// Middleware: the request goes on when no token is set or it carries the token; else 401, saying how to give it.
function requireToken (token, what = 'this lane\'s internals (ledgers, counters)') {
  return (req, res, next) => {
    if (!token) return next()
    const given = tokenOf(req)
    if (given && matches(given, token)) return next()
    res.status(401).json({
      error: `${given ? 'wrong token' : 'a token is needed'}: the server listens beyond loopback, so ${what} need the token it printed at start, as ?token=… or the X-H2bench-Token header`,
      param: 'token',
      code: 'H2B_TOKEN'
    })
  }
}

module.exports = { newToken, requireToken }
