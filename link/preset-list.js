'use strict'

// The table of the packet-level link's presets that h2bench-link --list
// prints: each preset's name, slug, what its spec means and its group.
// Apart from link/presets.js, which link/spec.js reads to resolve a name.

const { LINK_PRESETS } = require('./presets')
const { parseLinkSpec } = require('./spec')
const { describeLink } = require('./describe')

// The table printed by h2bench-link --list.
function listPresets () {
  const rows = [['name', 'slug', 'link', 'group']]
  for (const p of LINK_PRESETS) rows.push([p.name, p.slug, describeLink({ ...parseLinkSpec(p.slug), name: null }), p.group])
  const widths = rows[0].map((_, i) => Math.max(...rows.map(r => r[i].length)))
  return rows.map(r => r.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n'
}

module.exports = { listPresets }
