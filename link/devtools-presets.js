'use strict'

// Network presets as DevTools defines them: named data, units in the field
// names. Throughputs are in kbit/s as the DevTools menu labels them; what a
// kbit is differs between the two sets (the 2016 DevTools computed
// kbps × 1024 / 8 bytes per second, today's computes kbps × 1000 / 8), so each
// set says which. Numbers: ../shared/FACTS.md, read off the DevTools sources.
//
// DevTools (and CDP, which it drives) throttles per request, not per packet:
// each response is held until `latencyMs` after its request went out (every
// HTTP/2 stream too), and one shared pipe limits bytes per second. TCP and TLS
// setup, slow start and loss are not modelled, which is why N HTTP/1.1
// requests cost about ceil(N/6) × latency and N HTTP/2 streams about one.
const { byName } = require('../common/named')
const SETS = {
  2016: { bitsPerKbit: 1024, what: 'DevTools presets of 2016, as used by the source study' },
  current: { bitsPerKbit: 1000, what: "today's DevTools presets" }
}

const PRESETS = [
  { name: 'No throttling', set: null, downloadKbps: null, uploadKbps: null, latencyMs: 0 },
  { name: 'GPRS', set: '2016', downloadKbps: 50, uploadKbps: 20, latencyMs: 500 },
  { name: 'Regular 2G', set: '2016', downloadKbps: 250, uploadKbps: 50, latencyMs: 300 },
  { name: 'Good 2G', set: '2016', downloadKbps: 450, uploadKbps: 150, latencyMs: 150 },
  { name: 'Regular 3G', set: '2016', downloadKbps: 750, uploadKbps: 250, latencyMs: 100 },
  { name: 'Good 3G', set: '2016', downloadKbps: 1536, uploadKbps: 750, latencyMs: 40 },
  { name: 'Regular 4G', set: '2016', downloadKbps: 4096, uploadKbps: 3072, latencyMs: 20 },
  { name: 'DSL', set: '2016', downloadKbps: 2048, uploadKbps: 1024, latencyMs: 5 },
  { name: 'WiFi', set: '2016', downloadKbps: 30720, uploadKbps: 15360, latencyMs: 2 },
  { name: '3G', set: 'current', downloadKbps: 400, uploadKbps: 400, latencyMs: 2000 },
  { name: 'Slow 4G', set: 'current', downloadKbps: 1440, uploadKbps: 675, latencyMs: 562.5 },
  { name: 'Fast 4G', set: 'current', downloadKbps: 8100, uploadKbps: 1350, latencyMs: 165 }
]

function presetByName (name) {
  return byName(PRESETS, name, { what: 'network preset', matches: (p, wanted) => p.name.toLowerCase() === String(wanted).toLowerCase() })
}

// kbit/s of a preset's set → bytes/s, the unit CDP takes. null: unlimited.
function bytesPerSecond (preset, kbps) {
  if (kbps === null || kbps === undefined) return null
  return kbps * SETS[preset.set].bitsPerKbit / 8
}

// Parameters of CDP Network.emulateNetworkConditions: latency in ms (added
// to every request), throughput in bytes/s, -1 for no limit.
function toCdp (preset) {
  const down = bytesPerSecond(preset, preset.downloadKbps)
  const up = bytesPerSecond(preset, preset.uploadKbps)
  return {
    offline: false,
    latency: preset.latencyMs,
    downloadThroughput: down === null ? -1 : down,
    uploadThroughput: up === null ? -1 : up
  }
}

function throttled (preset) {
  return preset.downloadKbps !== null || preset.latencyMs > 0
}

// "250 kbit/s down, 50 kbit/s up, 300 ms per request" for reports.
function describePreset (preset) {
  if (!throttled(preset)) return 'no throttling'
  const perMbit = SETS[preset.set].bitsPerKbit // 1 Mbit = 1024 kbit in the 2016 set
  const rate = kbps => kbps === null ? 'unlimited' : kbps >= 1000 ? `${+(kbps / perMbit).toFixed(2)} Mbit/s` : `${kbps} kbit/s`
  return `${rate(preset.downloadKbps)} down, ${rate(preset.uploadKbps)} up, ${preset.latencyMs} ms per request`
}

// The link preset a DevTools preset's cell runs on (same name, same numbers): it
// decides the link a cell measures on, so it lives here, on the measuring path.
function linkSpecFor (presetName) {
  return presetName === 'No throttling' ? 'none' : presetName
}

module.exports = { linkSpecFor, PRESETS, SETS, presetByName, bytesPerSecond, toCdp, throttled, describePreset }
