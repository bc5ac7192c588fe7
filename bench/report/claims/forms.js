'use strict'

// The forms a claim may take: a closed set. An experiment declares each of
// its conclusions (a source's, or h2bench's own hypothesis) as one of these,
// naming the rows it rests on; bench/report/claims/judge.js turns the engine's
// verdict on each cell into the claim's status by one rule. Nothing here
// decides a status: a form only says which rows face which, and which of the
// engine's verdicts speak for the claim.
//
// A side is { lane, mode } (mode null: rows without one) or a lane name; a
// lane or mode '*' takes any, paired with the other side's row of the same
// lane or mode (push against request on every lane: { lane: '*', mode: 'push' }).
// Common options of every form:
//   text        the claim, in words (the hypothesis, not its outcome)
//   source      { figure, where } where the source says it (seed file and the
//               words quoted, or the article and the place); null for h2bench's own
//   hypothesis  true for h2bench's own claims (its words: holds, not reproduced)
//   where       row => bool: the rows the claim rests on (default: all)
//   match       workload fields both sides must share (compare-rows.js
//               workloadOf): a difference makes that cell "not comparable"
//   explain     rows => string: figures that explain the outcome (no status words)
//   invalid     row => reason or '': a row that measured something else (push refused, say) counts as not measured
//   metric      { name, samples: row => [ms …] }: what the engine compares (default: the row's samples)

const FORMS = ['faster', 'notFaster', 'same', 'grows', 'flat', 'suffersLess', 'suffersAlike', 'near', 'atLeast', 'atMost', 'meets', 'all']

const sideOf = side => typeof side === 'string' ? { lane: side, mode: null } : { mode: null, ...side }

function claim (form, fields, options = {}) {
  if (!FORMS.includes(form)) throw new TypeError(`unknown claim form ${form}; allowed: ${FORMS.join(', ')}`)
  if (!options.text) throw new TypeError(`a ${form} claim needs its text`)
  if (options.source && !(options.source.where && options.source.figure !== undefined)) throw new TypeError(`the source of "${options.text}" needs its figure and where it is`)
  return Object.freeze({
    form,
    ...fields,
    text: options.text,
    source: options.source || null,
    hypothesis: Boolean(options.hypothesis),
    where: options.where || null,
    match: options.match || null,
    explain: options.explain || null,
    metric: options.metric || null,
    invalid: options.invalid || null
  })
}

// `fast` is faster than `slow` in every cell both measured.
const faster = (fast, slow, options) => claim('faster', { a: sideOf(slow), b: sideOf(fast) }, options)
// `b` is no faster than `a`: slower, or no difference.
const notFaster = (b, a, options) => claim('notFaster', { a: sideOf(a), b: sideOf(b) }, options)
// `a` and `b` take the same time: the engine's "no difference".
const same = (a, b, options) => claim('same', { a: sideOf(a), b: sideOf(b) }, options)
// `side` takes longer at param = to than at param = from.
const grows = (side, param, from, to, options) => claim('grows', { a: sideOf(side), param, from, to }, options)
// `side` takes the same time at param = from and at param = to.
const flat = (side, param, from, to, options) => claim('flat', { a: sideOf(side), param, from, to }, options)
// A change (a lossy link, say) slows `less` down by less than it slows `more`,
// each against its own row without the change: `changed` picks the changed
// rows, `baseOf(row, rows)` the cell of the same workload without it.
const suffersLess = (less, more, { changed, baseOf }, options) => claim('suffersLess', { a: sideOf(more), b: sideOf(less), changed, baseOf }, options)
// The change slows `a` and `b` down alike: the interval of a's slowdown over b's within ×(1 ± tolerance).
const suffersAlike = (a, b, { changed, baseOf }, tolerance, options) => claim('suffersAlike', { a: sideOf(a), b: sideOf(b), changed, baseOf, tolerance }, options)
// `a` takes `figure` × `b`'s time, within ×(1 ± tolerance).
const near = (a, b, figure, tolerance, options) => claim('near', { a: sideOf(a), b: sideOf(b), figure, tolerance }, options)
// `a`'s value is at least `fraction` of `b`'s (rates: more is better), by the interval of the ratio.
const atLeast = (a, b, fraction, options) => claim('atLeast', { a: sideOf(a), b: sideOf(b), fraction }, options)
// `a`'s value is at most `figure` × `b`'s (a cost, such as the browser's CPU a batch: less is better), by the
// interval of a ÷ b: its upper end at most the figure.
const atMost = (a, b, figure, options) => claim('atMost', { a: sideOf(a), b: sideOf(b), figure }, options)
// A criterion that is not a comparison of times, declared by whoever set it (the QUIC interop runner's, say):
// `criterion.test(row)` → { met: true|false|null (null: not measured), why }, `criterion.name` says what it checks.
const meets = (side, criterion, options) => claim('meets', { a: sideOf(side), criterion }, options)
// Every part holds: the parts' cells pooled under the one rule.
const all = (parts, options) => claim('all', { parts }, options)

module.exports = { faster, notFaster, same, grows, flat, suffersLess, suffersAlike, near, atLeast, atMost, meets, all, FORMS }
