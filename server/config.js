'use strict'

const { parseArgs } = require('node:util')
const { LANES } = require('./lanes')
const { InputError } = require('../common/errors')
const { DEFAULT_DIR } = require('./certs')

// Every option in one place: flag, env variable, default. Flag > env > default.
const OPTIONS = {
  host: { flag: 'host', env: 'H2BENCH_HOST', default: '127.0.0.1', help: 'address every server listens on' },
  port: { flag: 'port', env: 'H2BENCH_PORT', default: 3000, port: true, help: 'port of the page server (plain HTTP)' },
  ...Object.fromEntries(LANES.map(lane => [`${lane.name}Port`, {
    flag: `${lane.name}-port`,
    env: `H2BENCH_${lane.name.toUpperCase()}_PORT`,
    default: lane.defaultPort,
    port: true,
    help: `port of lane ${lane.name}: ${lane.label}`
  }])),
  certsDir: { flag: 'certs-dir', env: 'H2BENCH_CERTS_DIR', default: DEFAULT_DIR, help: 'where cert.pem, key.pem and ca.pem are kept' },
  regenerateCerts: { flag: 'regenerate-certs', boolean: true, default: false, help: 'make a new certificate and exit' },
  chrome: { flag: 'chrome', boolean: true, default: false, help: 'also open the page in the local Chrome/Chromium, trusting the certificate' },
  lanesOnly: { flag: 'lanes-only', boolean: true, default: false, help: 'start the lanes only (no page server), for clients on other machines: every lane serves the manifest /lanes.json (h2bench load --lanes-at)' },
  lanesAt: { flag: 'lanes-at', default: '', help: 'the page only, here, with the lanes of another machine (npm start -- --lanes-only there): a lane\'s https:// URL there; their manifest (/lanes.json) lists them all, and their certificate\'s SPKI hash for the printed Chrome command' },
  token: { flag: 'token', env: 'H2BENCH_TOKEN', default: '', help: 'the token the lanes\' internals (ledgers, counters) and the page\'s link control need; beyond loopback a new one is made and printed when none is given' },
  link: { flag: 'link', default: '', help: 'put the lanes behind a packet-level link: a preset or spec (h2bench-link --list); Linux, root or user namespaces' },
  help: { flag: 'help', short: 'h', boolean: true, default: false, help: 'show this help' }
}

function helpText () {
  const rows = Object.values(OPTIONS).map(o => {
    const flag = `--${o.flag}${o.boolean ? '' : ' <value>'}`
    const extra = [o.env && `env ${o.env}`, !o.boolean && o.default !== '' && `default ${o.default}`].filter(Boolean).join(', ')
    return `  ${flag.padEnd(24)} ${o.help}${extra ? ` (${extra})` : ''}`
  })
  return [
    'Usage: npm start -- [options]   (or: node bin/h2bench.js [options])',
    '',
    'Starts the h2bench page server and one TLS server per lane, all serving the same app:',
    ...LANES.map(l => `  ${l.name.padEnd(4)} ${l.label}`),
    '',
    'Options:',
    ...rows,
    '',
    'A port of 0 picks a free port. --host 0.0.0.0 exposes the servers to your network (you are warned).',
    '',
    'Also: h2bench load [options]: the lanes under ab, h2load, nghttp and oha, side by side (h2bench load --help).'
  ].join('\n')
}

function parsePort (raw, o) {
  const s = String(raw).trim()
  const n = Number(s)
  if (!/^\d+$/.test(s) || n > 65535) {
    throw new InputError(`--${o.flag} (${o.env}) must be a port 0…65535 (0 = any free port); got "${raw}"`, { param: o.flag })
  }
  return n
}

// argv without node and script; env defaults to process.env.
function parseConfig (argv = process.argv.slice(2), env = process.env) {
  const parseOptions = Object.fromEntries(Object.values(OPTIONS).map(o => [o.flag, {
    type: o.boolean ? 'boolean' : 'string', ...(o.short && { short: o.short })
  }]))
  let values
  try {
    ({ values } = parseArgs({ args: argv, options: parseOptions, allowPositionals: false, strict: true }))
  } catch (err) {
    throw new InputError(`${err.message.split('\n')[0]} (see --help)`, { code: 'H2B_BAD_FLAG' })
  }
  const config = {}
  for (const [key, o] of Object.entries(OPTIONS)) {
    let raw = values[o.flag]
    if (raw === undefined && o.env && env[o.env] !== undefined && env[o.env] !== '') raw = env[o.env]
    if (raw === undefined) raw = o.default
    config[key] = o.port ? parsePort(raw, o) : raw
  }
  if (!config.host) throw new InputError('--host must not be empty', { param: 'host' })
  return config
}

function isLoopback (host) {
  if (host === 'localhost' || /^127\./.test(host)) return true
  // ::1 however written (0:0:0:0:0:0:0:1, [::1]): the URL parser normalises IPv6.
  try {
    return new URL(`http://[${host.replace(/^\[|\]$/g, '')}]/`).hostname === '[::1]'
  } catch {
    return false
  }
}

module.exports = { parseConfig, helpText, isLoopback, OPTIONS }
