'use strict'

// The checks a HAR passes before it is replayed: HAR 1.2 (log.version,
// log.entries with request and response) and, when the recorder wrote them,
// h2bench's own fields (log._h2bench, entry._h2bench). A failure is one
// HarError naming the file and the field ("site.har: log.entries[3].response.status
// is missing"), so the user knows which file is wrong and where.
const { UserError } = require('../../common/errors')

// The HAR cannot be replayed: not JSON, not HAR 1.2, or lacking a field replay needs.
class HarError extends UserError {
  constructor (message, options = {}) {
    super(message, { status: 400, code: 'H2B_BAD_HAR', ...options })
  }
}

const isObject = v => v !== null && typeof v === 'object' && !Array.isArray(v)

// A checker bound to `file`: fail(field, why) throws the HarError.
function checker (file) {
  const fail = (field, why) => { throw new HarError(`${file}: ${field} ${why}: not a HAR 1.2 that h2bench can replay`) }
  return {
    fail,
    object (v, field) { if (!isObject(v)) fail(field, v === undefined ? 'is missing' : 'is not an object') },
    array (v, field) { if (!Array.isArray(v)) fail(field, v === undefined ? 'is missing' : 'is not an array') },
    string (v, field) { if (typeof v !== 'string' || !v) fail(field, v === undefined ? 'is missing' : 'is not a non-empty string') },
    number (v, field, { nullable = false } = {}) {
      if (nullable && v === null) return
      if (typeof v !== 'number' || !Number.isFinite(v)) fail(field, v === undefined ? 'is missing' : `is not a number${nullable ? ' or null' : ''}`)
    }
  }
}

// The parsed JSON of `text`, or a HarError naming the file.
function parseHar (text, file) {
  try {
    return JSON.parse(String(text).replace(/^\uFEFF/, '')) // DevTools' "Save all as HAR" writes no BOM; others may
  } catch (err) {
    throw new HarError(`${file} is not JSON (${err.message}): a HAR file is one JSON object`)
  }
}

// Throws a HarError for the first field replay needs that `har` lacks.
function checkHar (har, file) {
  const c = checker(file)
  c.object(har, '(the top level)')
  c.object(har.log, 'log')
  if (har.log.version !== '1.2') c.fail('log.version', `is ${JSON.stringify(har.log.version)}, not "1.2"`)
  c.array(har.log.entries, 'log.entries')
  if (!har.log.entries.length) c.fail('log.entries', 'is empty (nothing to replay)')
  har.log.entries.forEach((e, i) => {
    const at = `log.entries[${i}]`
    c.object(e, at)
    c.object(e.request, `${at}.request`)
    c.string(e.request.method, `${at}.request.method`)
    c.string(e.request.url, `${at}.request.url`)
    if (!URL.canParse(e.request.url)) c.fail(`${at}.request.url`, `(${JSON.stringify(e.request.url.slice(0, 80))}) is not a URL`)
    c.object(e.response, `${at}.response`)
    c.number(e.response.status, `${at}.response.status`)
    c.array(e.response.headers, `${at}.response.headers`)
    e.response.headers.forEach((h, j) => {
      c.object(h, `${at}.response.headers[${j}]`)
      c.string(h.name, `${at}.response.headers[${j}].name`)
      if (typeof h.value !== 'string') c.fail(`${at}.response.headers[${j}].value`, 'is not a string')
    })
    c.object(e.response.content, `${at}.response.content`)
    const content = e.response.content
    if (content.text !== undefined && typeof content.text !== 'string') c.fail(`${at}.response.content.text`, 'is not a string')
    if (content.encoding !== undefined && content.encoding !== 'base64') c.fail(`${at}.response.content.encoding`, `is ${JSON.stringify(content.encoding)}, not "base64" or absent`)
    if (e._h2bench !== undefined) {
      c.object(e._h2bench, `${at}._h2bench`)
      c.string(e._h2bench.origin, `${at}._h2bench.origin`)
      c.number(e._h2bench.serverTimeMs, `${at}._h2bench.serverTimeMs`, { nullable: true })
      if (typeof e._h2bench.bodyComplete !== 'boolean') c.fail(`${at}._h2bench.bodyComplete`, 'is not a boolean')
    }
  })
  const own = har.log._h2bench
  if (own !== undefined) {
    c.object(own, 'log._h2bench')
    if (own.version !== 1) c.fail('log._h2bench.version', `is ${JSON.stringify(own.version)}; this h2bench replays version 1`)
    c.array(own.origins, 'log._h2bench.origins')
    own.origins.forEach((o, i) => {
      const at = `log._h2bench.origins[${i}]`
      c.object(o, at)
      c.string(o.origin, `${at}.origin`)
      c.string(o.host, `${at}.host`)
      c.number(o.port, `${at}.port`)
      if (o.address !== null && o.address !== undefined) c.string(o.address, `${at}.address`)
      c.array(o.certNames, `${at}.certNames`)
      if (o.certId !== null && o.certId !== undefined) c.string(o.certId, `${at}.certId`)
      if (o.rttMs !== undefined) c.number(o.rttMs, `${at}.rttMs`, { nullable: true })
    })
  }
  return har
}

module.exports = { parseHar, checkHar, HarError }
