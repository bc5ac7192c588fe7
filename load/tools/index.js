'use strict'

// The load tools h2bench load drives, by name, and which speak what.
const { ToolMissingError } = require('./common')

const TOOLS = Object.fromEntries(['ab', 'h2load', 'nghttp', 'oha'].map(name => [name, require(`./${name}`)]))
// Each protocol's tool unless the user picks another: h2load where it can
// (seed 004's tool), oha for HTTP/3.
const DEFAULT_TOOL = { 'http/1.1': 'h2load', h2: 'h2load', h3: 'oha' }
const PROTOCOL_NAMES = { 'http/1.1': 'HTTP/1.1', h2: 'HTTP/2', h3: 'HTTP/3' }

function toolByName (name) {
  const tool = TOOLS[name]
  if (!tool) throw new Error(`unknown tool "${name}"; tools are ${Object.keys(TOOLS).join(', ')}`)
  return tool
}

// The tool for a lane: `wanted` (a name) or the protocol's default; an
// Error when the tool cannot speak the lane's protocol.
function toolFor (lane, wanted = null) {
  const tool = toolByName(wanted || DEFAULT_TOOL[lane.protocol])
  if (!tool.protocols.includes(lane.protocol)) {
    const can = Object.values(TOOLS).filter(t => t.protocols.includes(lane.protocol)).map(t => t.name)
    throw new Error(`${tool.name} cannot load lane ${lane.name}: it speaks ${tool.protocols.map(p => PROTOCOL_NAMES[p]).join(' and ')}, ` +
      `the lane ${PROTOCOL_NAMES[lane.protocol]}; tools for it: ${can.join(', ')}`)
  }
  return tool
}

// The tool a run uses for `lane`: --tool LANE=, else --tool for its protocol,
// else the preset's, else the protocol's default (an Error as toolFor's).
function chosenTool (lane, { tools = {}, presetTools = {} } = {}) {
  return toolFor(lane, tools[lane.name] || tools[lane.protocol] || presetTools[lane.protocol] || null)
}

module.exports = { TOOLS, DEFAULT_TOOL, toolByName, toolFor, chosenTool, ToolMissingError }
