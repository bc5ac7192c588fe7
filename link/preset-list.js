'use strict'

// What h2bench-link --list prints: the packet-level link's presets (each
// preset's name, slug, what its spec means and its group) and the spec's keys
// (value form, default and whose it is); and the keys' lines of its --help.
// Keys and help come from one list, link/spec-keys.js, so they cannot disagree.

const { LINK_PRESETS } = require('./presets')
const { parseLinkSpec } = require('./spec')
const { describeLink } = require('./describe')
const { SPEC_KEYS, usage } = require('./spec-keys')

// Rows (the first the header) as columns two spaces apart.
function table (rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map(r => r[i].length)))
  return rows.map(r => r.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n'
}

// The presets table.
function listPresets () {
  const rows = [['name', 'slug', 'link', 'group']]
  for (const p of LINK_PRESETS) rows.push([p.name, p.slug, describeLink({ ...parseLinkSpec(p.slug), name: null }), p.group])
  return table(rows)
}

// The keys table: one line a key.
function listKeys () {
  return table([['key', 'values', 'default', 'whose'], ...SPEC_KEYS.map(k => [usage(k), k.values, k.default, k.whose || '-'])])
}

// h2bench-link --list: both tables.
function listAll () {
  return `${listPresets()}\nKeys of a spec (KEY sets both directions, KEY.up and KEY.down one; up = client → lanes):\n${listKeys()}`
}

// Words as lines of at most `width` characters (a longer word alone), each after `indent`.
function wrap (text, indent, width) {
  const lines = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  return [...lines, line]
}

// The --help lines of the keys: "  down   RATE: … — bottleneck rate, lanes → client (e.g. down=10mbit)", wrapped at `width`.
function keysHelp (width = 100) {
  const col = Math.max(...SPEC_KEYS.map(k => usage(k).length)) + 4
  return SPEC_KEYS.map(k => {
    const [first, ...rest] = wrap(`${k.values} — ${k.what}${k.example ? ` (e.g. ${k.example})` : ''}`, col, width)
    return [`  ${usage(k).padEnd(col - 2)}${first}`, ...rest.map(l => ' '.repeat(col) + l)].join('\n')
  }).join('\n')
}

module.exports = { listPresets, listKeys, listAll, keysHelp }
