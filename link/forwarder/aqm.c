/*
 * CoDel, FQ-CoDel and PIE for the forwarder's bottleneck (see aqm.h). Each
 * follows Linux's code path by path, cited by function; probabilities are
 * doubles here where Linux uses fixed point.
 */
#include "aqm.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- FIFOs -------------------------------------------------------------- */

static void fifo_add (fifo_t *q, packet_t *p) {
  p->next = NULL;
  if (q->tail) q->tail->next = p; else q->head = p;
  q->tail = p;
  q->packets++;
  q->bytes += (uint64_t)p->len;
}
static packet_t *fifo_take (fifo_t *q) {
  packet_t *p = q->head;
  if (!p) return NULL;
  q->head = p->next;
  if (!q->head) q->tail = NULL;
  q->packets--;
  q->bytes -= (uint64_t)p->len;
  p->next = NULL;
  return p;
}

/* ---- ECN ---------------------------------------------------------------- */

/* As INET_ECN_set_ce: Not-ECT cannot be marked (0); ECT(0) and ECT(1) become CE (the IPv4 header
 * checksum recomputed); CE stays CE (1). */
int ecn_set_ce (unsigned char *d, int len) {
  if (len >= 20 && (d[0] >> 4) == 4) {
    int ecn = d[1] & 3;
    if (ecn == 0) return 0;
    if (ecn == 3) return 1;
    d[1] |= 3;
    int hl = (d[0] & 15) * 4;
    if (hl < 20 || hl > len) return 1;
    d[10] = d[11] = 0;
    uint32_t sum = 0;
    for (int i = 0; i < hl; i += 2) sum += (uint32_t)(d[i] << 8 | d[i + 1]);
    while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
    sum = ~sum & 0xffff;
    d[10] = (unsigned char)(sum >> 8);
    d[11] = (unsigned char)(sum & 0xff);
    return 1;
  }
  if (len >= 40 && (d[0] >> 4) == 6) {
    int ecn = (d[1] >> 4) & 3; /* traffic class = low 4 bits of d[0] + high 4 of d[1]; ECN its low 2 */
    if (ecn == 0) return 0;
    d[1] |= 0x30;
    return 1;
  }
  return 0;
}

/* ---- CoDel (include/net/codel_impl.h) ------------------------------------ */

static uint64_t control_law (uint64_t t, uint64_t interval, uint32_t count) {
  return t + (uint64_t)((double)interval / sqrt((double)count));
}

/* codel_should_drop: `backlog` is what stays queued behind the packet (the whole qdisc's, as Linux passes). */
static int should_drop (aqm_t *a, codel_t *v, packet_t *p, uint64_t now) {
  if (!p) { v->first_above = 0; return 0; }
  v->ldelay = now - p->arrival;
  if (v->ldelay < a->target || a->bytes <= AQM_MTU) { v->first_above = 0; return 0; }
  if (v->first_above == 0) v->first_above = now + a->interval;
  else if (now >= v->first_above) return 1;
  return 0;
}

/* One packet out of `q` (counted in the totals too). */
static packet_t *take (aqm_t *a, fifo_t *q) {
  packet_t *p = fifo_take(q);
  if (p) { a->packets--; a->bytes -= (uint64_t)p->len; }
  return p;
}

static void drop_packet (aqm_t *a, packet_t *p) { a->dropped++; a->drop(p); }

/* codel_dequeue */
static packet_t *codel_dequeue (aqm_t *a, fifo_t *q, codel_t *v, uint64_t now) {
  packet_t *p = take(a, q);
  if (!p) { v->dropping = 0; return NULL; }
  int drop = should_drop(a, v, p, now);
  if (v->dropping) {
    if (!drop) v->dropping = 0;
    else if (now >= v->drop_next) {
      while (v->dropping && now >= v->drop_next) {
        v->count++;
        if (a->ecn && ecn_set_ce(p->data, p->len)) {
          a->marked++;
          v->drop_next = control_law(v->drop_next, a->interval, v->count);
          return p;
        }
        drop_packet(a, p);
        p = take(a, q);
        if (!should_drop(a, v, p, now)) v->dropping = 0;
        else v->drop_next = control_law(v->drop_next, a->interval, v->count);
      }
    }
  } else if (drop) {
    if (a->ecn && ecn_set_ce(p->data, p->len)) a->marked++;
    else {
      drop_packet(a, p);
      p = take(a, q);
      should_drop(a, v, p, now);
    }
    v->dropping = 1;
    /* Went above target soon after it last went below: start from the drop rate that controlled it then. */
    uint32_t delta = v->count - v->lastcount;
    if (delta > 1 && (int64_t)(now - v->drop_next) < (int64_t)(16 * a->interval)) v->count = delta;
    else v->count = 1;
    v->lastcount = v->count;
    v->drop_next = control_law(now, a->interval, v->count);
  }
  return p;
}

/* ---- FQ-CoDel (net/sched/sch_fq_codel.c) ---------------------------------- */

static void list_push (aqm_t *a, int list, int i) {
  a->flows[i].list = list;
  a->flows[i].next = -1;
  if (a->list_tail[list] >= 0) a->flows[a->list_tail[list]].next = i; else a->list_head[list] = i;
  a->list_tail[list] = i;
}
static int list_pop (aqm_t *a, int list) {
  int i = a->list_head[list];
  if (i < 0) return -1;
  a->list_head[list] = a->flows[i].next;
  if (a->list_head[list] < 0) a->list_tail[list] = -1;
  a->flows[i].list = 0;
  a->flows[i].next = -1;
  return i;
}

/* fq_codel_drop: from the flow with the largest backlog, drop packets from its head until half its bytes
 * (at most 64 packets, Linux's drop_batch_size) are gone. Returns how many: the queue's drops, not the AQM's. */
static int fq_drop_fattest (aqm_t *a) {
  int fat = 0;
  for (int i = 1; i < AQM_FLOWS; i++) if (a->flows[i].q.bytes > a->flows[fat].q.bytes) fat = i;
  uint64_t threshold = a->flows[fat].q.bytes / 2, len = 0;
  int n = 0;
  do {
    packet_t *p = take(a, &a->flows[fat].q);
    if (!p) break;
    len += (uint64_t)p->len;
    a->drop(p);
  } while (++n < 64 && len < threshold);
  return n;
}

static packet_t *fq_dequeue (aqm_t *a, uint64_t now) {
  for (;;) {
    int list = 1;
    if (a->list_head[1] < 0) { list = 2; if (a->list_head[2] < 0) return NULL; }
    int i = a->list_head[list];
    fq_flow_t *f = &a->flows[i];
    if (f->deficit <= 0) {
      f->deficit += AQM_QUANTUM;
      list_pop(a, list);
      list_push(a, 2, i);
      continue;
    }
    packet_t *p = codel_dequeue(a, &f->q, &f->cv, now);
    if (!p) {
      list_pop(a, list);
      /* A new flow that went empty passes once through the old list, so new flows cannot starve old ones. */
      if (list == 1 && a->list_head[2] >= 0) list_push(a, 2, i);
      continue;
    }
    f->deficit -= p->len;
    return p;
  }
}

/* ---- PIE (net/sched/sch_pie.c, RFC 8033) ---------------------------------- */

static void pie_init_vars (aqm_t *a) {
  a->burst_time = PIE_MAX_BURST;
  a->dq_tstamp = 0;
  a->accu_prob = 0;
}

/* pie_drop_early: `backlog` before this packet. */
static int pie_drop_early (aqm_t *a, double unit) {
  if (a->burst_time > 0) return 0;
  if (a->qdelay < a->target / 2 && a->prob < 0.2) return 0;
  if (a->bytes < 2 * AQM_MTU) return 0;
  if (a->prob == 0) a->accu_prob = 0;
  a->accu_prob += a->prob;
  if (a->accu_prob < 0.85) return 0;
  if (a->accu_prob >= 8.5) return 1;
  if (unit < a->prob) { a->accu_prob = 0; return 1; }
  return 0;
}

/* pie_calculate_probability, in timestamp mode (Linux's default, dq_rate_estimator off). */
static void pie_update (aqm_t *a) {
  double qdelay = (double)a->qdelay / 1e9, old = (double)a->qdelay_old / 1e9, target = (double)a->target / 1e9;
  int update = !(a->qdelay == 0 && a->bytes != 0);
  double alpha = 0.125, beta = 1.25; /* per second of delay (Linux: 2 and 20 sixteenths) */
  /* Smaller steps while the probability is small (RFC 8033 5.2). */
  if (a->prob < 0.1) {
    alpha /= 2; beta /= 2;
    for (double power = 100; a->prob < 1.0 / power && power <= 1e6; power *= 10) { alpha /= 4; beta /= 4; }
  }
  double delta = alpha * (qdelay - target) + beta * (qdelay - old);
  if (delta > 0.02 && a->prob >= 0.1) delta = 0.02; /* at most 2 % a step */
  if (qdelay > 0.25) delta += 0.02;                 /* and faster above 250 ms */
  a->prob += delta;
  if (a->prob < 0) a->prob = 0;
  if (a->prob > 1) a->prob = 1;
  if (a->qdelay == 0 && a->qdelay_old == 0 && update) a->prob -= a->prob / 64;
  if (a->qdelay < a->target / 2 && a->qdelay_old < a->target / 2 && a->prob == 0) pie_init_vars(a);
  a->qdelay_old = a->qdelay;
}

void aqm_tick (aqm_t *a, uint64_t now) {
  if (a->kind != AQM_PIE) return;
  while (a->next_update <= now) {
    pie_update(a);
    a->next_update += PIE_TUPDATE;
  }
}

/* ---- the interface ---------------------------------------------------------- */

void aqm_configure (aqm_t *a, int kind, uint64_t target, uint64_t interval, int ecn, uint64_t limit_packets, uint64_t limit_bytes, uint64_t now) {
  if (kind == AQM_FQ_CODEL && !a->flows) {
    a->flows = calloc(AQM_FLOWS, sizeof *a->flows);
    if (!a->flows) abort();
    for (int i = 0; i < AQM_FLOWS; i++) { a->flows[i].next = -1; }
    a->list_head[1] = a->list_head[2] = a->list_tail[1] = a->list_tail[2] = -1;
  }
  /* A change of discipline with packets queued: they move to the new one's queue in arrival order. */
  if (kind != a->kind && a->packets) {
    fifo_t all = { 0 };
    if (a->kind == AQM_FQ_CODEL) {
      /* Arrival order across flows: merge by (arrival, seq). */
      for (;;) {
        int best = -1;
        for (int i = 0; i < AQM_FLOWS; i++) {
          packet_t *h = a->flows[i].q.head;
          if (h && (best < 0 || h->arrival < a->flows[best].q.head->arrival ||
                    (h->arrival == a->flows[best].q.head->arrival && h->seq < a->flows[best].q.head->seq))) best = i;
        }
        if (best < 0) break;
        fifo_add(&all, fifo_take(&a->flows[best].q));
      }
      for (int i = 0; i < AQM_FLOWS; i++) { a->flows[i].list = 0; a->flows[i].next = -1; a->flows[i].deficit = 0; memset(&a->flows[i].cv, 0, sizeof a->flows[i].cv); }
      a->list_head[1] = a->list_head[2] = a->list_tail[1] = a->list_tail[2] = -1;
    } else {
      all = a->q;
      memset(&a->q, 0, sizeof a->q);
    }
    a->packets = a->bytes = 0;
    a->kind = kind;
    packet_t *p;
    while ((p = fifo_take(&all))) {
      if (kind == AQM_FQ_CODEL) {
        fq_flow_t *f = &a->flows[p->flow % AQM_FLOWS];
        fifo_add(&f->q, p);
        if (!f->list) { list_push(a, 1, (int)(p->flow % AQM_FLOWS)); f->deficit = AQM_QUANTUM; }
      } else fifo_add(&a->q, p);
      a->packets++;
      a->bytes += (uint64_t)p->len;
    }
  }
  if (kind != a->kind || target != a->target || interval != a->interval) {
    memset(&a->cv, 0, sizeof a->cv);
    a->prob = a->accu_prob = 0;
    a->qdelay = a->qdelay_old = 0;
    pie_init_vars(a);
    a->next_update = now + PIE_TUPDATE;
  }
  a->kind = kind;
  a->target = target;
  a->interval = interval;
  a->ecn = ecn;
  a->limit_packets = limit_packets;
  a->limit_bytes = limit_bytes;
}

int aqm_enqueue (aqm_t *a, packet_t *p, uint64_t now, double unit, uint32_t flow_hash, int *overlimit) {
  *overlimit = 0;
  p->arrival = now;
  if (a->kind == AQM_FQ_CODEL) {
    /* fq_codel_enqueue: every packet is queued, then the fattest flow pays for an overlimit. */
    uint32_t i = flow_hash % AQM_FLOWS;
    fq_flow_t *f = &a->flows[i];
    p->flow = i;
    fifo_add(&f->q, p);
    a->packets++;
    a->bytes += (uint64_t)p->len;
    if (!f->list) { list_push(a, 1, (int)i); f->deficit = AQM_QUANTUM; }
    if ((a->limit_packets && a->packets > a->limit_packets) || (a->limit_bytes && a->bytes > a->limit_bytes)) {
      *overlimit = fq_drop_fattest(a);
    }
    return 0;
  }
  if ((a->limit_packets && a->packets >= a->limit_packets) || (a->limit_bytes && a->bytes + (uint64_t)p->len > a->limit_bytes)) {
    *overlimit = 1;
    return -1;
  }
  if (a->kind == AQM_PIE) {
    aqm_tick(a, now);
    if (pie_drop_early(a, unit)) {
      /* ECN-capable packets are marked instead while the probability is at most 10 %. */
      if (!(a->ecn && a->prob <= 0.1 && ecn_set_ce(p->data, p->len))) { a->dropped++; return -1; }
      a->marked++;
    }
  }
  fifo_add(&a->q, p);
  a->packets++;
  a->bytes += (uint64_t)p->len;
  return 0;
}

packet_t *aqm_dequeue (aqm_t *a, uint64_t now) {
  if (a->kind == AQM_FQ_CODEL) return fq_dequeue(a, now);
  if (a->kind == AQM_CODEL) return codel_dequeue(a, &a->q, &a->cv, now);
  packet_t *p = take(a, &a->q);
  if (p && a->kind == AQM_PIE) {
    /* pie_process_dequeue, timestamp mode: the delay is this packet's sojourn; 0 once the queue is empty. */
    aqm_tick(a, now);
    a->qdelay = a->packets ? now - p->arrival : 0;
    uint64_t dtime = a->dq_tstamp ? now - a->dq_tstamp : 0;
    a->dq_tstamp = now;
    if (dtime) a->burst_time = a->burst_time > dtime ? a->burst_time - dtime : 0;
  }
  return p;
}
