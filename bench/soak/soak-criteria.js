'use strict'

// The numbers the soak's verdict judges by (bench/report/soak/soak-trend.js applies them): on the measuring
// side because the run prints them (its --help, its warm-up line), so a change to them is a rerun.

// RSS is flat when its least-squares growth over the measured span (slope ×
// span) is below the larger of these two: 5 % of the mean RSS, or 16 MiB.
// A GC sawtooth of tens of MiB averages out in the fit; a leak of a few KiB
// per request does not.
const RSS_TOLERANCE = { fraction: 0.05, floorMiB: 16 }
// Open fds are flat when their max − min after the warm-up is at most this:
// room for Chromium's six HTTP/1.1 connections to a lane closing and
// reopening, not for one fd per batch.
// Behind the edge lanes the server also holds the connections Caddy pools to
// their apps, which follow the load (soak-sockets.js counts them apart): those
// are held to Caddy's bound (EDGE_UPSTREAM_CONNS per edge lane), to a growth
// of at most POOL_GROWTH of that bound over the measured span (a leak of one
// connection every few batches goes past it), and the range above applies to
// the other fds. Sockets in CLOSE_WAIT (the peer closed, the server has not:
// what leaked sockets become) may grow by at most FD_RANGE.
const FD_RANGE = 8
const POOL_GROWTH = 0.05
// Warm-up: the first 20 % of the run, at least one minute for runs of 5 min
// or more (the heap, the TLS session caches and the browser's connections
// settle there).
const WARMUP_FRACTION = 0.2
const WARMUP_MIN_SECONDS = 60
const WARMUP_MIN_FROM_SECONDS = 300
// Fewer samples than this after the warm-up: no verdict on a trend.
const MIN_SAMPLES = 3

function warmupSeconds (durationSeconds) {
  const w = durationSeconds * WARMUP_FRACTION
  return durationSeconds >= WARMUP_MIN_FROM_SECONDS ? Math.max(w, WARMUP_MIN_SECONDS) : w
}

module.exports = { RSS_TOLERANCE, FD_RANGE, POOL_GROWTH, MIN_SAMPLES, warmupSeconds }
