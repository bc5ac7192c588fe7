'use strict'

const crypto = require('node:crypto')
const { InputError } = require('../common/errors')

const KIB = 1024
const MIB = 1024 * KIB
const LIMITS = Object.freeze({
  maxSize: 64 * MIB,
  maxDelay: 60000,
  minAssets: 1,
  maxAssets: 100
})
const UNITS = { '': 1, b: 1, kb: KIB, mb: MIB }
// Printable ASCII without the space-like and quote characters that could ever
// matter to a consumer. 90 symbols ≈ 6.5 bits of entropy per byte, so gzip
// cannot shrink a body below ~80 % and no layer can cheat by compressing.
const ALPHABET = Buffer.from(
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789' +
  '!#$%&()*+,-./:;<=>?@[]^_{|}~')

let block = null

// One preallocated block of LIMITS.maxSize incompressible bytes. Every body
// is a subarray of it: no per-request allocation proportional to the size,
// and a delayed request holds only a timer and a view. It starts with `//`
// and has no line break, so every prefix of two bytes or more is also a
// valid JavaScript file (one comment line): the pushed-asset route's scripts
// are views of it too. Made on first use; the servers make it before they
// listen (about 0.5 s), so no request waits for it.
function payloadBlock () {
  if (block === null) {
    block = Buffer.allocUnsafeSlow(LIMITS.maxSize)
    crypto.randomFillSync(block)
    const n = ALPHABET.length
    for (let i = 0; i < block.length; i++) block[i] = ALPHABET[block[i] % n]
    block.write('//', 0, 'latin1')
  }
  return block
}

// The same bytes for the same size on every lane and every request.
function payload (size) {
  return payloadBlock().subarray(0, size)
}

// What each parameter accepts, for the message when it came more than once.
const ALLOWED = {
  size: `an integer 0…${LIMITS.maxSize} bytes or with unit b, kb or mb`,
  delay: `an integer 0…${LIMITS.maxDelay} ms`,
  assets: `an integer ${LIMITS.minAssets}…${LIMITS.maxAssets}`
}

function single (query, name) {
  const value = query[name]
  if (Array.isArray(value) || (value !== undefined && typeof value !== 'string')) {
    throw new InputError(`${name} was given more than once; give it once${ALLOWED[name] ? `: ${ALLOWED[name]}` : ''}`, { param: name })
  }
  return value
}

// "100", "100b", "100kb", "0.1mb" (binary units, case-insensitive) → bytes.
function parseSize (raw, { max = LIMITS.maxSize, param = 'size' } = {}) {
  const allowed = `${param} must be 0…${max} bytes, as an integer or with unit b, kb or mb (e.g. 100kb, 0.1mb)`
  const m = /^(\d+(?:\.\d+)?)([a-z]*)$/i.exec(String(raw).trim())
  if (!m) throw new InputError(`${allowed}; got "${raw}"`, { param })
  const unit = m[2].toLowerCase()
  if (!(unit in UNITS)) throw new InputError(`unknown unit "${m[2]}": ${allowed}`, { param })
  if (UNITS[unit] === 1 && m[1].includes('.')) {
    throw new InputError(`${allowed}; a byte count must be whole, got "${raw}"`, { param })
  }
  const bytes = Math.round(Number(m[1]) * UNITS[unit])
  if (!Number.isSafeInteger(bytes) || bytes > max) throw new InputError(`${allowed}; got "${raw}"`, { param })
  return bytes
}

function parseIntParam (raw, { param, min, max, unit = '' }) {
  const allowed = `${param} must be an integer ${min}…${max}${unit}`
  if (!/^\d+$/.test(String(raw).trim())) throw new InputError(`${allowed}; got "${raw}"`, { param })
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new InputError(`${allowed}; got "${raw}"`, { param })
  return n
}

function parseDelay (raw) {
  return parseIntParam(raw, { param: 'delay', min: 0, max: LIMITS.maxDelay, unit: ' ms' })
}

// The optional `delay` of an Express query object, ms; absent means 0.
function delayOf (query) {
  const delay = single(query, 'delay')
  return delay === undefined ? 0 : parseDelay(delay)
}

// Reads `size` and `delay` from an Express query object; absent means 0.
function parseOptionQuery (query) {
  const size = single(query, 'size')
  return { size: size === undefined ? 0 : parseSize(size), delay: delayOf(query) }
}

module.exports = {
  KIB, MIB, LIMITS, payload, payloadBlock, parseSize, parseDelay, delayOf, parseIntParam, parseOptionQuery, single
}
