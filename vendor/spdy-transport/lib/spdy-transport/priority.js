'use strict'

var transport = require('../spdy-transport')
var utils = transport.utils

var assert = require('assert')
var debug = require('debug')('spdy:priority')

// h2bench: a node's priority is computed when it is asked for, from its
// parent's, and kept until the tree changes (tree.version). Upstream
// recomputed the range of every sibling and descendant whenever a node was
// added: with the tree's 100 nodes, every new stream walked 100 of them (4 %
// of the lane's CPU at 100 B). Same values: test/vendor/spdy-transport/priority.test.js.
function PriorityNode (tree, options) {
  this.tree = tree

  this.id = options.id
  this.parent = options.parent
  this.weight = options.weight

  // Computed in `_refresh`
  this._version = -1
  this._priority = 1

  this.children = {
    list: [],
    weight: 0
  }

  if (this.parent !== null) {
    this.parent.addChild(this)
  }
}

function compareChildren (a, b) {
  return a.weight === b.weight ? a.id - b.id : a.weight - b.weight
}

PriorityNode.prototype.toJSON = function toJSON () {
  return {
    parent: this.parent,
    weight: this.weight,
    exclusive: this.exclusive
  }
}

PriorityNode.prototype._refresh = function _refresh () {
  var version = this.tree.version
  if (this._version === version) {
    return
  }
  var parent = this.parent
  if (parent === null) {
    this._priority = 1
  } else {
    parent._refresh()
    this._priority = parent._priority * (this.weight / parent.children.weight)
  }
  this._version = version
}

PriorityNode.prototype.getPriority = function getPriority () {
  this._refresh()
  return this._priority
}

Object.defineProperty(PriorityNode.prototype, 'priority', {
  get: function () { return this.getPriority() }
})

PriorityNode.prototype.getPriorityRange = function getPriorityRange () {
  var parent = this.parent
  if (parent === null) {
    return { from: 0, to: 1 }
  }
  var range = parent.getPriorityRange()
  var share = range.to - range.from
  var list = parent.children.list
  var weight = 0
  for (var i = 0; i < list.length && list[i] !== this; i++) {
    weight += list[i].weight
  }
  return {
    from: range.from + share * (weight / parent.children.weight),
    to: range.from + share * ((weight + this.weight) / parent.children.weight)
  }
}

PriorityNode.prototype.addChild = function addChild (child) {
  child.parent = this
  utils.binaryInsert(this.children.list, child, compareChildren)
  this.children.weight += child.weight
  this.tree.version++
}

PriorityNode.prototype.remove = function remove () {
  assert(this.parent, 'Can\'t remove root node')

  this.parent.removeChild(this)
  this.tree._removeNode(this)

  // Move all children to the parent
  for (var i = 0; i < this.children.list.length; i++) {
    this.parent.addChild(this.children.list[i])
  }
}

PriorityNode.prototype.removeChild = function removeChild (child) {
  this.children.weight -= child.weight
  var index = utils.binarySearch(this.children.list, child, compareChildren)
  if (index !== -1 && this.children.list.length >= index) {
    this.children.list.splice(index, 1)
  }
  this.tree.version++
}

PriorityNode.prototype.removeChildren = function removeChildren () {
  var children = this.children.list
  this.children.list = []
  this.children.weight = 0
  this.tree.version++
  return children
}

function PriorityTree (options) {
  // Bumped on every change of the tree's shape (see PriorityNode _refresh).
  this.version = 0
  this.map = {}
  this.list = []
  this.defaultWeight = options.defaultWeight || 16

  this.count = 0
  this.maxCount = options.maxCount

  // Root
  this.root = this.add({
    id: 0,
    parent: null,
    weight: 1
  })
}
module.exports = PriorityTree

PriorityTree.create = function create (options) {
  return new PriorityTree(options)
}

PriorityTree.prototype.add = function add (options) {
  if (options.id === options.parent) {
    return this.addDefault(options.id)
  }

  var parent = options.parent === null ? null : this.map[options.parent]
  if (parent === undefined) {
    return this.addDefault(options.id)
  }

  if (debug.enabled) {
    debug('add node=%d parent=%d weight=%d exclusive=%d',
      options.id,
      options.parent === null ? -1 : options.parent,
      options.weight || this.defaultWeight,
      options.exclusive ? 1 : 0)
  }

  var children
  if (options.exclusive) {
    children = parent.removeChildren()
  }

  var node = new PriorityNode(this, {
    id: options.id,
    parent: parent,
    weight: options.weight || this.defaultWeight
  })
  this.map[options.id] = node

  if (options.exclusive) {
    for (var i = 0; i < children.length; i++) {
      node.addChild(children[i])
    }
  }

  this.count++
  if (this.count > this.maxCount) {
    debug('hit maximum remove id=%d', this.list[0].id)
    this.list.shift().remove()
  }

  // Root node is not subject to removal
  if (node.parent !== null) {
    this.list.push(node)
  }

  return node
}

// Only for testing, should use `node`'s methods
PriorityTree.prototype.get = function get (id) {
  return this.map[id]
}

PriorityTree.prototype.addDefault = function addDefault (id) {
  if (debug.enabled) { debug('creating default node') }
  return this.add({ id: id, parent: 0, weight: this.defaultWeight })
}

// h2bench: `list` is in the order nodes were added, not sorted by weight:
// upstream searched it with binarySearch() by weight and id, so removing a
// node (a PRIORITY frame for an open stream, or the 101st stream) often
// found -1 and spliced out the last node instead. Not reported upstream.
PriorityTree.prototype._removeNode = function _removeNode (node) {
  delete this.map[node.id]
  var index = this.list.indexOf(node)
  if (index !== -1) {
    this.list.splice(index, 1)
  }
  this.count--
}
