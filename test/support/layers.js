'use strict'

// The layers of h2bench's source, and a checker that reads every require()
// of it: a file may import files of its own room and of rooms on a lower
// level, never a room on its own level or above, never an entry point
// (bin/), and no two files may import each other, directly or round a
// circle. docs/architecture.md ("Rooms and layers") draws the same table.

const fs = require('node:fs')
const path = require('node:path')

// room → level (lower levels are imported by higher ones, never the reverse)
const LAYERS = {
  common: 0,
  shared: 0,
  client: 1,
  tools: 1,
  link: 2,
  server: 3,
  harness: 4,
  load: 5,
  bench: 6,
  bin: 7
}

// What runs in both the browser and Node lives in shared/ (statistics, the options' limits, the verdict
// engine); client/ is the browser's alone, and no Node code imports it.

// Inside the rooms a measurement runs: what only reports (harness/provenance.js REPORT_ROOMS: bench/report/,
// the verdict engine, the two report-only commands) is imported by nothing that measures, so a change there
// is a rebuild and never a rerun; bench/commands/ joins a tool's measuring and its report, and only bin/
// imports it.
const { REPORT_ROOMS } = require('../../harness/provenance')
const COMMANDS = 'bench/commands/'
const inRooms = (file, rooms) => rooms.some(r => file === r || file.startsWith(`${r}/`))
const reportsOnly = file => inRooms(file, REPORT_ROOMS)

// Files every room may read as data.
const DATA = new Set(['package.json'])

function sourceFiles (root) {
  const out = []
  const walk = dir => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name
      if (entry.isDirectory()) walk(rel)
      else if (entry.name.endsWith('.js')) out.push(rel)
    }
  }
  for (const room of Object.keys(LAYERS)) if (fs.existsSync(path.join(root, room))) walk(room)
  return out.sort()
}

// Every relative require('…') and require.resolve('…') of a file, with its line.
function importsOf (root, file) {
  const found = []
  const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n')
  lines.forEach((text, i) => {
    if (/^\s*(\/\/|\*)/.test(text)) return
    const re = /require(?:\.resolve)?\(\s*(['"])(\.{1,2}\/[^'"]*)\1/g
    let m
    while ((m = re.exec(text))) found.push({ line: i + 1, spec: m[2] })
  })
  return found
}

function resolve (root, file, spec) {
  const base = path.join(path.dirname(file), spec)
  for (const candidate of [base, `${base}.js`, `${base}.json`, `${base}/index.js`]) {
    const full = path.join(root, candidate)
    if (fs.existsSync(full) && fs.statSync(full).isFile()) return path.normalize(candidate).split(path.sep).join('/')
  }
  return null
}

const roomOf = file => file.split('/')[0]

// → { problems: ['file:line: …'], graph: Map(file → Set(file)) }
function checkLayers (root) {
  const problems = []
  const graph = new Map()
  for (const file of sourceFiles(root)) {
    const from = roomOf(file)
    const edges = new Set()
    graph.set(file, edges)
    for (const { line, spec } of importsOf(root, file)) {
      const target = resolve(root, file, spec)
      const at = `${file}:${line}`
      if (!target) {
        problems.push(`${at}: require('${spec}') names no file`)
        continue
      }
      if (DATA.has(target)) continue
      const to = roomOf(target)
      if (!(to in LAYERS)) {
        problems.push(`${at}: imports ${target}, which is in no layer (layers: ${Object.keys(LAYERS).join(', ')})`)
        continue
      }
      edges.add(target)
      if (to === 'bin') {
        problems.push(`${at}: imports ${target}: nothing imports an entry point (bin/); move what both need into a room below`)
      } else if (to === 'client' && from !== 'client') {
        problems.push(`${at}: imports ${target}: client/ is the browser's; what Node and the page share lives in shared/`)
      } else if (from !== to && LAYERS[to] >= LAYERS[from]) {
        problems.push(`${at}: imports ${target}: ${from}/ (level ${LAYERS[from]}) may import only rooms below it, and ${to}/ is level ${LAYERS[to]}`)
      } else if (target.startsWith(COMMANDS) && from !== 'bin') {
        problems.push(`${at}: imports ${target}: a command (${COMMANDS}) is imported by its entry point in bin/ alone`)
      } else if (reportsOnly(target) && !reportsOnly(file) && !file.startsWith(COMMANDS)) {
        problems.push(`${at}: imports ${target}, which only reports (${REPORT_ROOMS.join(', ')}): what measures must not; ` +
          `move what both need to the measuring side, or join them in ${COMMANDS}`)
      }
    }
  }
  for (const cycle of cyclesOf(graph)) problems.push(`circle: ${cycle.join(' → ')} → ${cycle[0]}: files must not import each other, even through others`)
  return { problems, graph }
}

// Strongly connected components of more than one file (Tarjan), each as a
// list of its files in the order of one circle through them.
function cyclesOf (graph) {
  let index = 0
  const stack = []
  const on = new Set()
  const idx = new Map()
  const low = new Map()
  const out = []
  const visit = v => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of graph.get(v) || []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)))
    }
    if (low.get(v) === idx.get(v)) {
      const scc = []
      let w
      do {
        w = stack.pop()
        on.delete(w)
        scc.push(w)
      } while (w !== v)
      if (scc.length > 1 || (graph.get(v) || new Set()).has(v)) out.push(circleThrough(graph, new Set(scc), scc.sort()[0]))
    }
  }
  for (const v of graph.keys()) if (!idx.has(v)) visit(v)
  return out
}

// One circle inside a component, from `start` back to it (breadth first).
function circleThrough (graph, members, start) {
  const prev = new Map([[start, null]])
  const queue = [start]
  while (queue.length) {
    const v = queue.shift()
    for (const w of graph.get(v) || []) {
      if (!members.has(w)) continue
      if (w === start) {
        const path = [v]
        for (let p = prev.get(v); p !== null; p = prev.get(p)) path.unshift(p)
        return path
      }
      if (!prev.has(w)) {
        prev.set(w, v)
        queue.push(w)
      }
    }
  }
  return [...members]
}

module.exports = { checkLayers, LAYERS, sourceFiles, importsOf }
