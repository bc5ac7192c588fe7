/*
 * Active queue management for the forwarder's bottleneck: CoDel, FQ-CoDel and
 * PIE, as Linux implements them (include/net/codel_impl.h, net/sched/
 * sch_fq_codel.c, sch_pie.c + pie.h), with Linux's defaults set by the caller
 * (link/spec-values.js). Times are CLOCK_MONOTONIC ns. The forwarder calls
 * them in virtual time: aqm_enqueue at a packet's arrival, aqm_dequeue when
 * the link is free to send the next packet, in the order those happen, so
 * each decision sees exactly the packets that had arrived by then.
 */
#ifndef H2BENCH_AQM_H
#define H2BENCH_AQM_H
#include <stdint.h>

/* A packet held by the forwarder: in a queue (next), then in the release heap. */
typedef struct packet {
  uint64_t release, seq;
  uint64_t arrival, index; /* when it reached the bottleneck; its index in its direction (for the draws) */
  struct packet *next;
  uint32_t flow;           /* FQ-CoDel's bucket */
  int dir, len, copy;
  unsigned char data[];
} packet_t;

typedef struct { packet_t *head, *tail; uint64_t packets, bytes; } fifo_t;
typedef struct { uint32_t count, lastcount; int dropping; uint64_t first_above, drop_next, ldelay; } codel_t;
typedef struct { fifo_t q; codel_t cv; int64_t deficit; int list, next; } fq_flow_t;

enum { AQM_DROPTAIL = 0, AQM_CODEL = 1, AQM_FQ_CODEL = 2, AQM_PIE = 3 };
#define AQM_FLOWS 1024      /* FQ-CoDel's flows (Linux's default) */
#define AQM_QUANTUM 1514    /* FQ-CoDel's quantum (Linux's default: the device's MTU + its 14-byte header) */
#define AQM_MTU 1500        /* CoDel's and PIE's "one MTU" of backlog: a TUN device's MTU, no link-layer header */
#define PIE_TUPDATE 15000000ULL   /* ns: PIE's probability update interval */
#define PIE_MAX_BURST 150000000ULL /* ns: PIE's burst allowance */

typedef struct aqm {
  /* configuration */
  int kind, ecn;
  uint64_t target, interval, limit_packets, limit_bytes;
  /* CoDel and PIE: one FIFO; FQ-CoDel: a FIFO per flow and its new and old lists */
  fifo_t q;
  codel_t cv;
  fq_flow_t *flows;
  int list_head[3], list_tail[3]; /* 1: new flows, 2: old flows */
  uint64_t packets, bytes;        /* everything queued */
  /* PIE */
  double prob, accu_prob;
  uint64_t qdelay, qdelay_old, burst_time, dq_tstamp, next_update;
  /* counters */
  uint64_t dropped, marked;
  /* what the forwarder does with a packet the queue drops (it frees it) */
  void (*drop)(packet_t *p);
} aqm_t;

/* Set the discipline; queued packets are kept (and dropped to fit a smaller limit on the next arrival). */
void aqm_configure (aqm_t *a, int kind, uint64_t target, uint64_t interval, int ecn, uint64_t limit_packets, uint64_t limit_bytes, uint64_t now);
/* A packet arrives at `now`: 0 queued, -1 dropped at once (the caller frees it). *overlimit: how many
 * packets the queue's limit dropped (this one, or FQ-CoDel's from its fattest flow, freed by a->drop); the
 * AQM's own drops are in a->dropped. 
 * `unit` is the packet's random draw in [0, 1) (PIE's early drop). `flow_hash` picks FQ-CoDel's queue. */
int aqm_enqueue (aqm_t *a, packet_t *p, uint64_t now, double unit, uint32_t flow_hash, int *overlimit);
/* The link is free at `now`: the next packet to send, or NULL (queue empty). Drops and marks on the way. */
packet_t *aqm_dequeue (aqm_t *a, uint64_t now);
/* Run PIE's periodic probability updates due by `now` (a no-op for the others). */
void aqm_tick (aqm_t *a, uint64_t now);
/* Set the ECN CE mark on an ECN-capable IPv4 or IPv6 packet: 1 when it carries CE now, 0 when it cannot. */
int ecn_set_ce (unsigned char *data, int len);

#endif
