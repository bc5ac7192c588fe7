/*
 * h2bench-forwarder: the packet-level link of h2bench.
 *
 * Moves IP packets between two TUN devices, the client's (moved into the
 * client network namespace by link/namespace.js) and the servers' (left on the
 * lanes' side). Each direction is an emulated link, in this order:
 *
 *   scheduled drops (packets n…m, or n…m of every flow) → outages (dark periods) →
 *   loss (Bernoulli, or Gilbert-Elliott as netem's gemodel) → duplication → corruption (one bit flipped after the IP
 *   header, so the receiver's TCP/UDP checksum throws the packet away) →
 *   bottleneck: a queue (droptail, or CoDel, FQ-CoDel or PIE: aqm.c) + a fixed rate
 *   (changed at given times by steps), or a mahimahi delivery trace →
 *   propagation delay ± uniform jitter (order kept) or, for a reordered packet,
 *   no delay (netem's reorder: it overtakes the packets in flight).
 * Before all that, up, and after it, down, the client's NAT (nat.c): it may
 * rebind the client's port or address.
 *
 * Control is a line protocol on stdin (one reply line each on stdout):
 *   set up|down delay_us=N jitter_us=N rate_bps=N queue_packets=N queue_bytes=N
 *                loss=F dup=F corrupt=F reorder=F trace=PATH|-
 *                ge=0|1 ge_p=F ge_r=F ge_bad=F ge_good=F
 *                drop_from=N drop_count=N outage_on_us=N outage_off_us=N outage_count=N
 *                aqm=0|1|2|3 aqm_target_us=N aqm_interval_us=N ecn=0|1
 *                flowdrop_from=N flowdrop_count=N steps=AT_US:RATE|k:DELAY_US|k[;…]|-
 *                rebind_kind=0|1|2 rebind_first_us=N rebind_every_us=N (the client's NAT: nat.c) → ok | error …
 *   seed N        every random decision from seed N, packet indexes from 0 → ok
 *   stats [reset]                                                 → one JSON line (with the seed)
 *   quit
 * End of stdin ends the forwarder, which closes both TUN devices, so the
 * kernel removes them: nothing outlives the process that started it.
 *
 * Usage: h2bench-forwarder CLIENT_TUN SERVER_TUN [SEED]
 * Prints "ready" once both devices exist, or "busy NAME" (exit 3) when a TUN
 * of that name is held by another forwarder: the caller picks another name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include "aqm.h"
#include "nat.h"
#include "table.h"

#define MAX_PACKET 65536
#define TRACE_OPPORTUNITY_BYTES 1504 /* mahimahi: one MTU-sized delivery, TUN payload */
#define MAX_HELD_BYTES (1024ULL * 1024 * 1024) /* safety cap of everything held */
#define UP 0
#define DOWN 1

/* ---- time and randomness ---------------------------------------------- */

static uint64_t now_ns (void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Every random decision is a function of the seed, the direction, the
 * packet's index in that direction (counted from 0 since the seed was set)
 * and what is decided, nothing else: two runs with the same seed meet the
 * same decisions packet for packet, whatever else the link does (a duplicate
 * or a jittered packet draws nothing from the other decisions' stream). So two
 * protocols given the same seed see the same packets lost. splitmix64's
 * finalizer mixes the inputs (Steele, Lea, Flood 2014). */
enum { K_LOSS = 1, K_DUP, K_CORRUPT, K_CORRUPT_AT, K_CORRUPT_BIT, K_REORDER, K_JITTER, K_GE_MOVE, K_GE_LOSS, K_PIE };
static uint64_t seed_value = 0;
static uint64_t mix64 (uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
/* The draw for decision `kind` of copy `copy` of packet `index` in direction `dir`. */
static uint64_t draw (int dir, uint64_t index, int kind, int copy) {
  return mix64(mix64(mix64(seed_value ^ (uint64_t)(dir + 1)) ^ index) ^ (uint64_t)(kind * 4 + copy));
}
static double unit_of (uint64_t x) { return (double)(x >> 11) / 9007199254740992.0; }
static int chance_at (int dir, uint64_t index, int kind, int copy, double p) {
  return p > 0 && unit_of(draw(dir, index, kind, copy)) < p;
}

/* ---- histograms: exact below 64 ns, then 32 buckets per power of two (~3 %) -- */

#define HIST_SUB 64
#define HIST_BUCKETS (HIST_SUB + 58 * 32)
typedef struct { uint64_t count[HIST_BUCKETS]; uint64_t n, max; } hist_t;

static int hist_index (uint64_t v) {
  if (v < HIST_SUB) return (int)v;
  int msb = 63 - __builtin_clzll(v); /* >= 6 */
  int shift = msb - 5;               /* v >> shift is 32..63 */
  return HIST_SUB + (msb - 6) * 32 + (int)((v >> shift) & 31);
}
static uint64_t hist_value (int idx) { /* the middle of the bucket */
  if (idx < HIST_SUB) return (uint64_t)idx;
  int octave = (idx - HIST_SUB) / 32, m = (idx - HIST_SUB) % 32, shift = octave + 1;
  return ((uint64_t)(32 + m) << shift) + ((1ULL << shift) >> 1);
}
static void hist_add (hist_t *h, uint64_t v) {
  h->count[hist_index(v)]++;
  h->n++;
  if (v > h->max) h->max = v;
}
static uint64_t hist_pct (const hist_t *h, double q) {
  if (!h->n) return 0;
  uint64_t rank = (uint64_t)ceil(q * (double)h->n), seen = 0;
  if (rank < 1) rank = 1;
  for (int i = 0; i < HIST_BUCKETS; i++) {
    seen += h->count[i];
    if (seen >= rank) { uint64_t v = hist_value(i); return v > h->max ? h->max : v; }
  }
  return h->max;
}

/* ---- packets and the release heap -------------------------------------- */

static packet_t **heap;
static size_t heap_len, heap_cap;
static uint64_t seq_counter, held_bytes;

static int before (const packet_t *a, const packet_t *b) {
  return a->release < b->release || (a->release == b->release && a->seq < b->seq);
}
static void heap_push (packet_t *p) {
  if (heap_len == heap_cap) {
    heap_cap = heap_cap ? heap_cap * 2 : 4096;
    heap = realloc(heap, heap_cap * sizeof *heap);
    if (!heap) { perror("realloc"); exit(1); }
  }
  size_t i = heap_len++;
  while (i && before(p, heap[(i - 1) / 2])) { heap[i] = heap[(i - 1) / 2]; i = (i - 1) / 2; }
  heap[i] = p;
}
static packet_t *heap_pop (void) {
  packet_t *top = heap[0], *last = heap[--heap_len];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= heap_len) break;
    if (c + 1 < heap_len && before(heap[c + 1], heap[c])) c++;
    if (!before(heap[c], last)) break;
    heap[i] = heap[c];
    i = c;
  }
  if (heap_len) heap[i] = last;
  return top;
}

/* ---- one direction of the link ------------------------------------------ */

#define MAX_STEPS 64
#define NEVER UINT64_MAX

typedef struct {
  /* configuration */
  uint64_t delay, jitter, rate_bps, queue_packets, queue_bytes;
  double loss, dup, corrupt, reorder;
  /* Gilbert-Elliott loss (netem's gemodel): p good → bad, r bad → good, the loss
   * probability in each state (1-h, 1-k); ge_bad_state: the state now. */
  int ge_on, ge_bad_state; double ge_p, ge_r, ge_bad, ge_good;
  /* Scheduled drops: packets drop_from … drop_from + drop_count − 1 (by index since the seed). */
  uint64_t drop_from, drop_count;
  /* The same of every flow (5-tuple), by its packets' index in this direction: its first flight. */
  uint64_t flowdrop_from, flowdrop_count;
  table_t flows;
  /* Outages: from bh_base on, up for bh_on ns, then dark for bh_off ns, bh_count times (0: repeating; bh_off 0: never dark). */
  uint64_t bh_on, bh_off, bh_base, bh_count;
  /* Steps: at step_base + step_at[i], the rate (step_rate[i], -1 kept) and delay (step_delay[i], -1 kept) change. */
  uint64_t step_base, step_at[MAX_STEPS]; int64_t step_rate[MAX_STEPS], step_delay[MAX_STEPS]; int step_n, step_next;
  uint64_t *trace; size_t trace_len; uint64_t trace_period_ms; uint64_t trace_base;
  /* droptail bottleneck: departure times of the packets not yet sent (a ring) */
  uint64_t *fifo_depart; int *fifo_len; size_t fifo_cap, fifo_head, fifo_count; uint64_t fifo_bytes;
  uint64_t last_depart, last_release;
  uint64_t opp; int opp_left; /* trace: opportunity index, bytes left in it */
  /* An AQM (aqm.c): packets wait in it and leave when the link is free (service_at, NEVER when empty). */
  aqm_t aqm; int aqm_kind; uint64_t aqm_target, aqm_interval; int ecn; uint64_t service_at;
  /* counters */
  uint64_t in_packets, in_bytes, out_packets, out_bytes, lost, queue_dropped, duplicated, corrupted,
           reordered, overflow_dropped, write_errors, scheduled_dropped, blackholed, flow_dropped, steps_applied, nat_dropped;
  uint64_t aqm_dropped0, ecn_marked0; /* the AQM's counts at the last stats reset */
  uint64_t index; /* packets in since the seed was set: the draws' packet index (stats reset leaves it) */
  hist_t qdelay, late;
} dir_t;

static dir_t dirs[2];
static nat_t nat; /* the client's NAT: rebinding (nat.c) */
static int tun_fd[2]; /* tun_fd[UP] is read for UP (client side); written for DOWN */

static void fifo_purge (dir_t *d, uint64_t now) {
  while (d->fifo_count && d->fifo_depart[d->fifo_head] <= now) {
    d->fifo_bytes -= (uint64_t)d->fifo_len[d->fifo_head];
    d->fifo_head = (d->fifo_head + 1) % d->fifo_cap;
    d->fifo_count--;
  }
}
static void fifo_push (dir_t *d, uint64_t depart, int len) {
  if (d->fifo_count == d->fifo_cap) {
    size_t cap = d->fifo_cap ? d->fifo_cap * 2 : 1024;
    uint64_t *dep = malloc(cap * sizeof *dep);
    int *lens = malloc(cap * sizeof *lens);
    if (!dep || !lens) { perror("malloc"); exit(1); }
    for (size_t i = 0; i < d->fifo_count; i++) {
      dep[i] = d->fifo_depart[(d->fifo_head + i) % d->fifo_cap];
      lens[i] = d->fifo_len[(d->fifo_head + i) % d->fifo_cap];
    }
    free(d->fifo_depart); free(d->fifo_len);
    d->fifo_depart = dep; d->fifo_len = lens; d->fifo_cap = cap; d->fifo_head = 0;
  }
  size_t tail = (d->fifo_head + d->fifo_count) % d->fifo_cap;
  d->fifo_depart[tail] = depart;
  d->fifo_len[tail] = len;
  d->fifo_count++;
  d->fifo_bytes += (uint64_t)len;
}

/* Time of trace opportunity k (the trace repeats with its last timestamp as period). */
static uint64_t opp_time (const dir_t *d, uint64_t k) {
  uint64_t cycle = k / d->trace_len, i = k % d->trace_len;
  return d->trace_base + (cycle * d->trace_period_ms + d->trace[i]) * 1000000ULL;
}
/* First opportunity at or after t. */
static uint64_t opp_at_or_after (const dir_t *d, uint64_t t) {
  if (t <= d->trace_base) return 0;
  uint64_t ms = (t - d->trace_base + 999999) / 1000000; /* first whole ms ≥ t */
  uint64_t cycle = ms / d->trace_period_ms, in = ms % d->trace_period_ms;
  size_t lo = 0, hi = d->trace_len; /* first trace[i] >= in */
  while (lo < hi) { size_t mid = (lo + hi) / 2; if (d->trace[mid] < in) lo = mid + 1; else hi = mid; }
  uint64_t k = cycle * d->trace_len + lo;
  while (opp_time(d, k) < t) k++;
  return k;
}

/* The link sends a packet of `len` bytes whose turn comes at `now`: when its
 * sending starts and when it has left (by the rate, the trace's opportunities,
 * or at once without either). The link was idle if the last packet left by now. */
static void serve (dir_t *d, int len, uint64_t now, uint64_t *start, uint64_t *depart) {
  if (d->rate_bps) {
    uint64_t s = d->last_depart > now ? d->last_depart : now;
    uint64_t serial = (uint64_t)((double)len * 8.0 * 1e9 / (double)d->rate_bps + 0.5);
    *start = s;
    *depart = d->last_depart = s + serial;
  } else if (d->trace) {
    /* mahimahi: each opportunity carries 1504 bytes; a packet may span several,
     * several small packets may share one; unused bytes of a past one are lost. */
    if (d->last_depart <= now && (d->opp_left == 0 || opp_time(d, d->opp) < now)) {
      uint64_t k = opp_at_or_after(d, now);
      if (k != d->opp || d->opp_left == 0) { d->opp = k; d->opp_left = TRACE_OPPORTUNITY_BYTES; }
    }
    int remaining = len;
    *start = opp_time(d, d->opp);
    while (remaining > 0) {
      if (d->opp_left == 0) { d->opp++; d->opp_left = TRACE_OPPORTUNITY_BYTES; }
      int take = remaining < d->opp_left ? remaining : d->opp_left;
      remaining -= take;
      d->opp_left -= take;
    }
    *depart = d->last_depart = opp_time(d, d->opp);
  } else {
    *start = *depart = now > d->last_depart ? now : d->last_depart;
    d->last_depart = *depart;
  }
}

/* When a trace's link can start sending at `t` (its next opportunity with bytes left); t for a rate. */
static uint64_t next_start (const dir_t *d, uint64_t t) {
  if (!d->trace) return t;
  if (d->last_depart <= t && (d->opp_left == 0 || opp_time(d, d->opp) < t)) return opp_time(d, opp_at_or_after(d, t));
  return opp_time(d, d->opp_left ? d->opp : d->opp + 1);
}

/* The droptail bottleneck: returns 0 and sets *depart and *start (when service starts),
 * or -1 when the droptail queue is full. */
static int bottleneck (dir_t *d, int len, uint64_t now, uint64_t *start, uint64_t *depart) {
  if (!d->rate_bps && !d->trace) { *start = *depart = now; return 0; }
  fifo_purge(d, now);
  if (d->queue_packets && d->fifo_count >= d->queue_packets) return -1;
  if (d->queue_bytes && d->fifo_bytes + (uint64_t)len > d->queue_bytes) return -1;
  serve(d, len, now, start, depart);
  fifo_push(d, *depart, len);
  return 0;
}

/* Steps due by `t`: the rate and delay they set. */
static void apply_steps (dir_t *d, uint64_t t) {
  while (d->step_next < d->step_n && d->step_base + d->step_at[d->step_next] <= t) {
    int i = d->step_next++;
    if (d->step_rate[i] >= 0) d->rate_bps = (uint64_t)d->step_rate[i];
    if (d->step_delay[i] >= 0) { d->delay = (uint64_t)d->step_delay[i]; if (d->jitter > d->delay) d->jitter = d->delay; }
    d->steps_applied++;
  }
}

static void flip_bit (unsigned char *data, int len, int dir, uint64_t index, int copy) {
  int header = 0;
  if (len >= 20 && (data[0] >> 4) == 4) header = (data[0] & 15) * 4;
  else if (len >= 40 && (data[0] >> 4) == 6) header = 40;
  if (header >= len) header = 0;
  int at = header + (int)(draw(dir, index, K_CORRUPT_AT, copy) % (uint64_t)(len - header));
  data[at] ^= (unsigned char)(1u << (draw(dir, index, K_CORRUPT_BIT, copy) % 8));
}

/* ---- flows: a packet's 5-tuple, hashed ------------------------------------ */

/* The hash of a packet's protocol, addresses and (TCP, UDP) ports; the same for every packet of a flow in one direction. */
static uint64_t flow_hash (const unsigned char *p, int len) {
  uint64_t h = 0x6a09e667f3bcc909ULL;
  int proto = -1, off = 0;
  if (len >= 20 && (p[0] >> 4) == 4) {
    proto = p[9]; off = (p[0] & 15) * 4;
    for (int i = 12; i < 20; i++) h = mix64(h ^ p[i]);
  } else if (len >= 40 && (p[0] >> 4) == 6) {
    proto = p[6]; off = 40;
    for (int i = 8; i < 40; i++) h = mix64(h ^ p[i]);
  }
  h = mix64(h ^ (uint64_t)(proto + 1));
  if ((proto == 6 || proto == 17) && off + 4 <= len) h = mix64(h ^ ((uint64_t)p[off] << 24 | (uint64_t)p[off + 1] << 16 | (uint64_t)p[off + 2] << 8 | p[off + 3]));
  return h;
}

/* ---- after the bottleneck: corruption, delay, jitter, reordering ----------- */

/* Packet p (copy `copy` of index p->index) leaves the bottleneck at `depart`: into the release heap. */
static void emit (dir_t *d, packet_t *p, uint64_t depart) {
  int dir = p->dir, c = p->copy;
  uint64_t index = p->index;
  if (chance_at(dir, index, K_CORRUPT, c, d->corrupt)) { flip_bit(p->data, p->len, dir, index, c); d->corrupted++; }
  if (d->delay && chance_at(dir, index, K_REORDER, c, d->reorder)) {
    p->release = depart;
    d->reordered++;
  } else {
    uint64_t delay = d->delay;
    if (d->jitter) delay = delay - d->jitter + (uint64_t)(unit_of(draw(dir, index, K_JITTER, c)) * (double)(2 * d->jitter));
    p->release = depart + delay;
    if (p->release < d->last_release) p->release = d->last_release; /* a link keeps order */
    d->last_release = p->release;
  }
  heap_push(p);
}

static void free_packet (packet_t *p) {
  held_bytes -= (uint64_t)p->len;
  free(p);
}

/* Whether packets of this direction go through the AQM's queue: while it has one, and until what it holds has left. */
static int queued_path (const dir_t *d) { return d->aqm_kind != AQM_DROPTAIL || d->aqm.packets; }

/* Runs the AQM's queue in virtual time up to `upto`: each time the link is
 * free and a packet waits, the discipline picks it (dropping or marking on the
 * way), the link serves it. */
static void aqm_advance (dir_t *d, uint64_t upto) {
  while (d->service_at <= upto) {
    uint64_t t = d->service_at;
    apply_steps(d, t);
    uint64_t s = next_start(d, t);
    if (s > t) { d->service_at = s; continue; } /* a trace: wait for its next opportunity */
    aqm_tick(&d->aqm, t);
    packet_t *p = aqm_dequeue(&d->aqm, t);
    if (!p) { d->service_at = NEVER; break; }
    uint64_t start, depart;
    serve(d, p->len, t, &start, &depart);
    hist_add(&d->qdelay, start - p->arrival);
    emit(d, p, depart);
    d->service_at = d->aqm.packets ? (d->last_depart > t ? d->last_depart : t) : NEVER;
  }
  aqm_tick(&d->aqm, upto);
}

static void ingest (int dir, unsigned char *buf, int len, uint64_t now) {
  dir_t *d = &dirs[dir];
  if (dir == UP) nat_up(&nat, buf, len, now); /* the client's packets pass its NAT before the link */
  uint64_t index = d->index++;
  d->in_packets++;
  d->in_bytes += (uint64_t)len;
  apply_steps(d, now);
  if (d->drop_count && index >= d->drop_from && index - d->drop_from < d->drop_count) { d->scheduled_dropped++; return; }
  if (d->flowdrop_count) {
    uint64_t i = table_count(&d->flows, flow_hash(buf, len)); /* this packet's index in its flow */
    if (i >= d->flowdrop_from && i - d->flowdrop_from < d->flowdrop_count) { d->flow_dropped++; return; }
  }
  if (d->bh_off && (now - d->bh_base) % (d->bh_on + d->bh_off) >= d->bh_on &&
      (!d->bh_count || (now - d->bh_base) / (d->bh_on + d->bh_off) < d->bh_count)) { d->blackholed++; return; }
  if (d->ge_on) {
    /* As netem's loss_gilb_ell: the state moves, then this packet is lost with
     * the probability of the state it arrived in. */
    int lose;
    double move = unit_of(draw(dir, index, K_GE_MOVE, 0)), fate = unit_of(draw(dir, index, K_GE_LOSS, 0));
    if (!d->ge_bad_state) { if (move < d->ge_p) d->ge_bad_state = 1; lose = fate < d->ge_good; }
    else { if (move < d->ge_r) d->ge_bad_state = 0; lose = fate < d->ge_bad; }
    if (lose) { d->lost++; return; }
  } else if (chance_at(dir, index, K_LOSS, 0, d->loss)) { d->lost++; return; }
  int copies = 1;
  if (chance_at(dir, index, K_DUP, 0, d->dup)) { copies = 2; d->duplicated++; }
  for (int c = 0; c < copies; c++) {
    if (held_bytes + (uint64_t)len > MAX_HELD_BYTES) { d->overflow_dropped++; continue; }
    packet_t *p = malloc(sizeof *p + (size_t)len);
    if (!p) { perror("malloc"); exit(1); }
    memcpy(p->data, buf, (size_t)len);
    p->len = len;
    p->dir = dir;
    p->seq = seq_counter++;
    p->index = index;
    p->copy = c;
    p->next = NULL;
    p->arrival = now;
    held_bytes += (uint64_t)len;
    if (queued_path(d)) {
      aqm_advance(d, now); /* what the link sent before this packet arrived */
      int overlimit;
      uint32_t hash = d->aqm_kind == AQM_FQ_CODEL ? (uint32_t)flow_hash(buf, len) : 0;
      int queued = aqm_enqueue(&d->aqm, p, now, unit_of(draw(dir, index, K_PIE, c)), hash, &overlimit) == 0;
      d->queue_dropped += (uint64_t)overlimit; /* this packet, or FQ-CoDel's from its fattest flow */
      if (!queued) { free_packet(p); continue; }
      if (d->service_at == NEVER) d->service_at = d->last_depart > now ? d->last_depart : now;
      aqm_advance(d, now); /* an idle link sends it at once */
      continue;
    }
    uint64_t start, depart;
    if (bottleneck(d, len, now, &start, &depart) < 0) { d->queue_dropped++; free_packet(p); continue; }
    hist_add(&d->qdelay, start - now);
    emit(d, p, depart);
  }
}

/* ---- control ------------------------------------------------------------ */

static int load_trace (dir_t *d, const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) { snprintf(err, errlen, "trace %s: %s", path, strerror(errno)); return -1; }
  size_t n = 0, cap = 1024;
  uint64_t *t = malloc(cap * sizeof *t);
  char line[256];
  while (t && fgets(line, sizeof line, f)) {
    char *end, *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '\n' || *p == '\r' || *p == 0) continue; /* blank lines are ignored */
    unsigned long long v = strtoull(p, &end, 10);
    if (end == p) { snprintf(err, errlen, "trace %s: line %zu is not a number", path, n + 1); free(t); fclose(f); return -1; }
    if (n && v < t[n - 1]) { snprintf(err, errlen, "trace %s: timestamps decrease at line %zu", path, n + 1); free(t); fclose(f); return -1; }
    if (n == cap) { cap *= 2; t = realloc(t, cap * sizeof *t); if (!t) break; }
    t[n++] = v;
  }
  fclose(f);
  if (!t) { snprintf(err, errlen, "trace %s: out of memory", path); return -1; }
  if (!n || t[n - 1] == 0) { snprintf(err, errlen, "trace %s: empty, or its last timestamp is 0", path); free(t); return -1; }
  free(d->trace);
  d->trace = t; d->trace_len = n; d->trace_period_ms = t[n - 1];
  d->trace_base = now_ns(); d->opp = 0; d->opp_left = 0;
  return 0;
}

/* steps=AT_US:RATE_BPS|k:DELAY_US|k[;…] (k: kept), or - for none; times from now. */
static int parse_steps (dir_t *d, const char *v, char *err, size_t errlen) {
  d->step_n = d->step_next = 0;
  d->step_base = now_ns();
  if (!strcmp(v, "-")) return 0;
  const char *p = v;
  while (*p) {
    if (d->step_n == MAX_STEPS) { snprintf(err, errlen, "set: more than %d steps", MAX_STEPS); return -1; }
    char *end;
    int64_t f[3];
    for (int i = 0; i < 3; i++) {
      if (i && *p++ != ':') { snprintf(err, errlen, "set: steps=%s: each step is AT_US:RATE|k:DELAY_US|k", v); return -1; }
      if (i && *p == 'k') { f[i] = -1; p++; continue; }
      unsigned long long x = strtoull(p, &end, 10);
      if (end == p) { snprintf(err, errlen, "set: steps=%s: each step is AT_US:RATE|k:DELAY_US|k", v); return -1; }
      f[i] = (int64_t)x;
      p = end;
    }
    if (d->step_n && (uint64_t)f[0] * 1000 <= d->step_at[d->step_n - 1]) { snprintf(err, errlen, "set: steps=%s: times must increase", v); return -1; }
    d->step_at[d->step_n] = (uint64_t)f[0] * 1000;
    d->step_rate[d->step_n] = f[1];
    d->step_delay[d->step_n] = f[2] < 0 ? -1 : f[2] * 1000;
    d->step_n++;
    if (*p == ';') p++;
    else if (*p) { snprintf(err, errlen, "set: steps=%s: steps are joined by ;", v); return -1; }
  }
  return 0;
}

static int apply_set (char *args, char *err, size_t errlen) {
  char *save, *tok = strtok_r(args, " \t\r\n", &save);
  int which;
  if (tok && !strcmp(tok, "up")) which = UP;
  else if (tok && !strcmp(tok, "down")) which = DOWN;
  else { snprintf(err, errlen, "set: direction must be up or down"); return -1; }
  dir_t *d = &dirs[which];
  int rebind_set = 0, rebind_kind = nat.kind;
  uint64_t rebind_first = nat.first, rebind_every = nat.every;
  while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
    char *eq = strchr(tok, '=');
    if (!eq) { snprintf(err, errlen, "set: %s is not key=value", tok); return -1; }
    *eq = 0;
    const char *k = tok, *v = eq + 1;
    char *end;
    if (!strcmp(k, "steps")) {
      if (parse_steps(d, v, err, errlen) < 0) return -1;
      continue;
    }
    if (!strcmp(k, "trace")) {
      if (!strcmp(v, "-")) { free(d->trace); d->trace = NULL; d->trace_len = 0; }
      else if (load_trace(d, v, err, errlen) < 0) return -1;
      continue;
    }
    double x = strtod(v, &end);
    if (end == v || *end || x < 0) { snprintf(err, errlen, "set: %s=%s is not a number >= 0", k, v); return -1; }
    if (!strcmp(k, "delay_us")) d->delay = (uint64_t)(x * 1000);
    else if (!strcmp(k, "jitter_us")) d->jitter = (uint64_t)(x * 1000);
    else if (!strcmp(k, "rate_bps")) { d->rate_bps = (uint64_t)x; if (d->last_depart < now_ns()) d->last_depart = 0; }
    else if (!strcmp(k, "queue_packets")) d->queue_packets = (uint64_t)x;
    else if (!strcmp(k, "queue_bytes")) d->queue_bytes = (uint64_t)x;
    else if (!strcmp(k, "loss")) d->loss = x;
    else if (!strcmp(k, "dup")) d->dup = x;
    else if (!strcmp(k, "corrupt")) d->corrupt = x;
    else if (!strcmp(k, "reorder")) d->reorder = x;
    else if (!strcmp(k, "ge_p")) { d->ge_p = x; d->ge_bad_state = 0; }
    else if (!strcmp(k, "ge_r")) d->ge_r = x;
    else if (!strcmp(k, "ge_bad")) d->ge_bad = x;
    else if (!strcmp(k, "ge_good")) d->ge_good = x;
    else if (!strcmp(k, "ge")) d->ge_on = x > 0;
    else if (!strcmp(k, "drop_from")) d->drop_from = (uint64_t)x;
    else if (!strcmp(k, "drop_count")) d->drop_count = (uint64_t)x;
    else if (!strcmp(k, "outage_on_us")) { d->bh_on = (uint64_t)(x * 1000); d->bh_base = now_ns(); }
    else if (!strcmp(k, "outage_off_us")) { d->bh_off = (uint64_t)(x * 1000); d->bh_base = now_ns(); }
    else if (!strcmp(k, "outage_count")) d->bh_count = (uint64_t)x;
    else if (!strcmp(k, "aqm")) {
      if (x > 3 || x != (int)x) { snprintf(err, errlen, "set: aqm=%s is not 0 (droptail), 1 (CoDel), 2 (FQ-CoDel) or 3 (PIE)", v); return -1; }
      d->aqm_kind = (int)x;
    }
    else if (!strcmp(k, "aqm_target_us")) d->aqm_target = (uint64_t)(x * 1000);
    else if (!strcmp(k, "aqm_interval_us")) d->aqm_interval = (uint64_t)(x * 1000);
    else if (!strcmp(k, "ecn")) d->ecn = x > 0;
    else if (!strcmp(k, "flowdrop_from")) d->flowdrop_from = (uint64_t)x;
    else if (!strcmp(k, "flowdrop_count")) d->flowdrop_count = (uint64_t)x;
    else if (!strcmp(k, "rebind_kind")) {
      if (x > 2 || x != (int)x) { snprintf(err, errlen, "set: rebind_kind=%s is not 0 (none), 1 (port) or 2 (address)", v); return -1; }
      rebind_kind = (int)x; rebind_set = 1;
    }
    else if (!strcmp(k, "rebind_first_us")) { rebind_first = (uint64_t)(x * 1000); rebind_set = 1; }
    else if (!strcmp(k, "rebind_every_us")) { rebind_every = (uint64_t)(x * 1000); rebind_set = 1; }
    else { snprintf(err, errlen, "set: unknown key %s", k); return -1; }
  }
  if (d->jitter > d->delay) d->jitter = d->delay;
  uint64_t now = now_ns();
  if (rebind_set) nat_configure(&nat, rebind_kind, rebind_first, rebind_every, now);
  if (queued_path(d)) aqm_advance(d, now); /* the old discipline up to now, then the new one */
  aqm_configure(&d->aqm, d->aqm_kind, d->aqm_target, d->aqm_interval, d->ecn, d->queue_packets, d->queue_bytes, now);
  if (d->aqm.packets && d->service_at == NEVER) d->service_at = now;
  return 0;
}

static void print_hist (const char *name, const hist_t *h) {
  printf("\"%s\":{\"n\":%llu,\"p50\":%.4f,\"p90\":%.4f,\"p99\":%.4f,\"max\":%.4f}", name,
         (unsigned long long)h->n, hist_pct(h, 0.5) / 1e6, hist_pct(h, 0.9) / 1e6,
         hist_pct(h, 0.99) / 1e6, h->max / 1e6);
}

static void print_stats (int reset) {
  uint64_t now = now_ns();
  printf("{");
  for (int i = 0; i < 2; i++) {
    dir_t *d = &dirs[i];
    fifo_purge(d, now);
    if (queued_path(d)) aqm_advance(d, now);
    int q = queued_path(d);
    printf("%s\"%s\":{\"in_packets\":%llu,\"in_bytes\":%llu,\"out_packets\":%llu,\"out_bytes\":%llu,"
           "\"lost\":%llu,\"queue_dropped\":%llu,\"duplicated\":%llu,\"corrupted\":%llu,\"reordered\":%llu,"
           "\"overflow_dropped\":%llu,\"write_errors\":%llu,\"scheduled_dropped\":%llu,\"blackholed\":%llu,\"queued_packets\":%llu,\"queued_bytes\":%llu,"
           "\"flow_dropped\":%llu,\"aqm_dropped\":%llu,\"ecn_marked\":%llu,\"steps_applied\":%llu,\"nat_dropped\":%llu,\"rate_bps\":%llu,\"delay_ms\":%.4f,",
           i ? "," : "", i ? "down" : "up",
           (unsigned long long)d->in_packets, (unsigned long long)d->in_bytes,
           (unsigned long long)d->out_packets, (unsigned long long)d->out_bytes,
           (unsigned long long)d->lost, (unsigned long long)d->queue_dropped,
           (unsigned long long)d->duplicated, (unsigned long long)d->corrupted,
           (unsigned long long)d->reordered, (unsigned long long)d->overflow_dropped,
           (unsigned long long)d->write_errors, (unsigned long long)d->scheduled_dropped, (unsigned long long)d->blackholed,
           (unsigned long long)(q ? d->aqm.packets : d->fifo_count),
           (unsigned long long)(q ? d->aqm.bytes : d->fifo_bytes),
           (unsigned long long)d->flow_dropped, (unsigned long long)(d->aqm.dropped - d->aqm_dropped0),
           (unsigned long long)(d->aqm.marked - d->ecn_marked0), (unsigned long long)d->steps_applied,
           (unsigned long long)d->nat_dropped, (unsigned long long)d->rate_bps, d->delay / 1e6);
    print_hist("queue_delay_ms", &d->qdelay);
    printf(",");
    print_hist("late_ms", &d->late);
    printf("}");
    if (reset) {
      d->in_packets = d->in_bytes = d->out_packets = d->out_bytes = d->lost = d->queue_dropped = 0;
      d->duplicated = d->corrupted = d->reordered = d->overflow_dropped = d->write_errors = 0;
      d->scheduled_dropped = d->blackholed = d->flow_dropped = d->steps_applied = d->nat_dropped = 0;
      d->aqm_dropped0 = d->aqm.dropped;
      d->ecn_marked0 = d->aqm.marked;
      memset(&d->qdelay, 0, sizeof d->qdelay);
      memset(&d->late, 0, sizeof d->late);
    }
  }
  printf(",\"nat\":{\"generation\":%llu,\"rewritten\":%llu,\"dropped\":%llu}", (unsigned long long)nat.generation,
         (unsigned long long)nat.rewritten, (unsigned long long)nat.dropped);
  if (reset) nat.rewritten = nat.dropped = 0;
  printf(",\"held_packets\":%zu,\"held_bytes\":%llu,\"seed\":\"%llu\"}\n", heap_len, (unsigned long long)held_bytes, (unsigned long long)seed_value);
}

static char ctl_buf[65536];
static size_t ctl_len;

/* Returns 1 to quit. */
static int control (int fd) {
  ssize_t r = read(fd, ctl_buf + ctl_len, sizeof ctl_buf - 1 - ctl_len);
  if (r <= 0) return 1; /* our parent is gone: so are we, and the TUN devices */
  ctl_len += (size_t)r;
  char *nl;
  while ((nl = memchr(ctl_buf, '\n', ctl_len))) {
    *nl = 0;
    char *line = ctl_buf, err[512] = "";
    if (!strncmp(line, "set ", 4)) {
      if (apply_set(line + 4, err, sizeof err) < 0) printf("error %s\n", err);
      else printf("ok\n");
    } else if (!strcmp(line, "stats")) print_stats(0);
    else if (!strcmp(line, "stats reset")) print_stats(1);
    else if (!strncmp(line, "seed ", 5)) { /* a new seed, and packet indexes from 0 in both directions */
      char *end;
      unsigned long long v = strtoull(line + 5, &end, 10);
      if (end == line + 5 || *end) printf("error seed: %.40s is not a whole number\n", line + 5);
      else { seed_value = v; dirs[UP].index = dirs[DOWN].index = 0; dirs[UP].ge_bad_state = dirs[DOWN].ge_bad_state = 0; table_clear(&dirs[UP].flows); table_clear(&dirs[DOWN].flows); printf("ok\n"); }
    }
    else if (!strcmp(line, "quit")) return 1;
    else if (line[0]) printf("error unknown command: %.80s\n", line);
    fflush(stdout);
    size_t used = (size_t)(nl - ctl_buf) + 1;
    memmove(ctl_buf, ctl_buf + used, ctl_len - used);
    ctl_len -= used;
  }
  if (ctl_len == sizeof ctl_buf - 1) ctl_len = 0; /* an absurd line: drop it */
  return 0;
}

/* ---- TUN devices and the loop ------------------------------------------- */

static int open_tun (const char *name) {
  int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) { printf("error /dev/net/tun: %s\n", strerror(errno)); fflush(stdout); exit(2); }
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
  if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
    if (errno == EBUSY) { printf("busy %s\n", name); fflush(stdout); exit(3); }
    printf("error TUNSETIFF %s: %s\n", name, strerror(errno));
    fflush(stdout);
    exit(2);
  }
  return fd;
}

static void arm (int tfd, uint64_t at) {
  static uint64_t armed = UINT64_MAX;
  if (at == armed) return;
  armed = at;
  struct itimerspec its;
  memset(&its, 0, sizeof its);
  if (at != UINT64_MAX) {
    if (at == 0) at = 1;
    its.it_value.tv_sec = (time_t)(at / 1000000000ULL);
    its.it_value.tv_nsec = (long)(at % 1000000000ULL);
  }
  timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static void release_due (uint64_t now) {
  while (heap_len && heap[0]->release <= now) {
    packet_t *p = heap_pop();
    dir_t *d = &dirs[p->dir];
    int out = p->dir == UP ? tun_fd[DOWN] : tun_fd[UP];
    /* Down, the packet reaches the client's NAT now: to a binding it no longer has, it goes no further. */
    if (p->dir == DOWN && nat_down(&nat, p->data, p->len, p->release) < 0) d->nat_dropped++;
    else if (write(out, p->data, (size_t)p->len) == p->len) {
      d->out_packets++;
      d->out_bytes += (uint64_t)p->len;
    } else {
      d->write_errors++;
    }
    hist_add(&d->late, now - p->release);
    held_bytes -= (uint64_t)p->len;
    free(p);
  }
}

int main (int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: h2bench-forwarder CLIENT_TUN SERVER_TUN [SEED]\n");
    return 2;
  }
  seed_value = argc > 3 ? strtoull(argv[3], NULL, 10) : now_ns();
  for (int i = 0; i < 2; i++) { dirs[i].service_at = NEVER; dirs[i].aqm.drop = free_packet; dirs[i].aqm.list_head[1] = dirs[i].aqm.list_head[2] = dirs[i].aqm.list_tail[1] = dirs[i].aqm.list_tail[2] = -1; }
  tun_fd[UP] = open_tun(argv[1]);
  tun_fd[DOWN] = open_tun(argv[2]);
  int ep = epoll_create1(EPOLL_CLOEXEC);
  int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  struct epoll_event ev;
  int fds[4] = { tun_fd[UP], tun_fd[DOWN], 0, tfd };
  for (int i = 0; i < 4; i++) {
    ev.events = EPOLLIN;
    ev.data.u32 = (uint32_t)i;
    if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev) < 0) { perror("epoll_ctl"); return 1; }
  }
  printf("ready\n");
  fflush(stdout);
  static unsigned char buf[MAX_PACKET];
  struct epoll_event events[8];
  for (;;) {
    uint64_t wake = heap_len ? heap[0]->release : NEVER;
    for (int i = 0; i < 2; i++) if (dirs[i].service_at < wake) wake = dirs[i].service_at;
    arm(tfd, wake);
    int n = epoll_wait(ep, events, 8, -1);
    if (n < 0 && errno != EINTR) { perror("epoll_wait"); return 1; }
    for (int i = 0; i < n; i++) {
      uint32_t which = events[i].data.u32;
      if (which == 2) {
        if (control(0)) return 0;
      } else if (which == 3) {
        uint64_t expirations;
        if (read(tfd, &expirations, sizeof expirations) < 0) { /* spurious */ }
      } else {
        /* A bounded batch, so one busy direction cannot starve the other. */
        for (int k = 0; k < 64; k++) {
          ssize_t r = read(tun_fd[which], buf, sizeof buf);
          if (r <= 0) break;
          ingest((int)which, buf, (int)r, now_ns());
        }
      }
    }
    uint64_t now = now_ns();
    for (int i = 0; i < 2; i++) if (queued_path(&dirs[i])) aqm_advance(&dirs[i], now);
    release_due(now);
  }
}
