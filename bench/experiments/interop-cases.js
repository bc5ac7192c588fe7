'use strict'

// The QUIC interop runner's network cases (github.com/quic-interop/quic-interop-runner
// at 1d6f655, 2026-04-06; its simulator github.com/quic-interop/quic-network-simulator
// at e557a54, 2025-11-18), as data: each case's files, repetitions, timeout, the
// simulator scenario it names (verbatim), its pass check, and that scenario on
// this repository's packet-level link (link/spec-keys.js), with what differs.
// The experiment is bench/experiments/interop.js; the criteria on our rows,
// interop-criteria.js.
//
// Where the numbers come from (runner: testcases_quic.py unless said):
//   every case     testcase.py TestCase.scenario() "simple-p2p --delay=15ms --bandwidth=10Mbps --queue=25"
//                  unless the case names its own; TestCase.timeout() 60 s unless its own
//   goodput        MeasurementGoodput: FILESIZE 10 MiB, repetitions() 5; check(): one handshake
//                  (_count_handshakes), the file intact (_check_version_and_files), goodput =
//                  8 × FILESIZE ÷ (last − first 1-RTT packet from the server, at the client) in kbps;
//                  interop.py _run_measurement: any failed repetition fails it, else
//                  "{:.0f} (± {:.0f}) kbps".format(statistics.mean, statistics.stdev)
//   crosstraffic   MeasurementCrossTraffic(MeasurementGoodput): FILESIZE 25 MiB (not 10), timeout()
//                  180 s, additional_containers() iperf_server and iperf_client with IPERF_CONGESTION=cubic;
//                  the iperf endpoint's run.sh (github.com/marten-seemann/quic-interop-iperf-endpoint)
//                  runs `iperf -c $CLIENT -t 3600 -Z cubic` on the server's side (docker-compose.yml:
//                  iperf_server on the right net, client4 → the iperf client's 193.167.0.90 on the left),
//                  so its CUBIC flow goes server → client, the transfer's way, for the whole test
//   longrtt        TestCaseLongRTT(TestCaseHandshake): a 1 KiB file, scenario
//                  "simple-p2p --delay=750ms --bandwidth=10Mbps --queue=25" (10 Mbit/s, as since
//                  c18008b "add a long-RTT test case", 2020-06-09: not 1 Mbit/s); check(): one
//                  handshake, the file, and at least 2 ClientHellos (a 1.5 s RTT outlasts the
//                  client's first PTO, so it must retransmit its Initial)
//   handshakeloss  TestCaseHandshakeLoss: _num_runs 50 files of 1 KiB, testname "multiconnect" (a
//                  connection per file), timeout() 300 s, scenario "drop-rate --delay=15ms
//                  --bandwidth=10Mbps --queue=25 --rate_to_server=30 --rate_to_client=30
//                  --burst_to_server=3 --burst_to_client=3"; check(): 50 handshakes, the files
//   transferloss   TestCaseTransferLoss: a 2 MiB file, drop-rate at 2 % each way, bursts ≤ 3;
//                  check(): one handshake, the file
//   blackhole      TestCaseBlackhole: a 10 MiB file, scenario "blackhole --delay=15ms
//                  --bandwidth=10Mbps --queue=25 --on=5s --off=2s"; check(): one handshake, the file
//
// The simulator (sim/scenarios/):
//   helper/quic-point-to-point-helper.cc  the bottleneck: ns-3's point-to-point link (DataRate and
//       Delay each way), a DropTail device queue of 1 packet, and in front of it a PfifoFast queue
//       disc of --queue packets; ns-3's device sends one packet while both hold theirs. This link's
//       `queue` counts the packets waiting and the one being sent (docs/link.md, spec table), so
//       --queue=25 is queue=27 here: 25 + 1 waiting, 1 on the wire
//   drop-rate/drop-rate-error-model.cc  DropRateErrorModel::DoCorrupt: UDP packets only
//       (`if(!IsUDPPacket(p)) return false`), each dropped with chance q = rate/100 (uniform
//       0…99 < rate) unless `burst` were just dropped in a row; one model per direction
//       (drop-rate.cc: client_drops, server_drops), at the receiving device (after the queue)
//   blackhole/blackhole.cc  main(): every packet dropped from --on after the simulator starts
//       until --on + --off, --repeat times (default 1: one outage), both directions by default
//
// Onto this link (link/spec-keys.js): rate both ways (`down`, `up`), one-way `delay`, `queue`
// (as above), `gemodel` for drop-rate (gemodelFor below: the same mean loss, mean burst and
// mean gap), `outage=ON/OFF` for blackhole, `cross.down=cubic` for the iperf flow.

const KiB = 1024
const MiB = 1024 * 1024

// ns-3's device queue and the packet on its wire, beyond the queue disc's --queue (above).
const NS3_QUEUE_EXTRA = 2

// simple-p2p and every scenario built on it: { delayMs (one way), rateMbit (each way), queue (packets) }.
const P2P = Object.freeze({ delayMs: 15, rateMbit: 10, queue: 25 })

// The bottleneck as a link spec: --bandwidth both ways (the point-to-point link is symmetric),
// --delay each way, --queue as this link counts it.
function linkOf ({ delayMs, rateMbit, queue }) {
  return `down=${rateMbit}mbit,up=${rateMbit}mbit,delay=${delayMs}ms,queue=${queue + NS3_QUEUE_EXTRA}`
}

// drop-rate (q, at most `burst` in a row) as netem's Gilbert model, gemodel=P/R (1-H 100 %,
// 1-K 0 %). Before a packet the simulator has dropped k in a row (0…b); k → k+1 with chance q
// while k < b, else back to 0, so π_k ∝ q^k, its mean loss q·S / (S + q^b) with S = 1 + q + … +
// q^(b−1), a burst lasts S packets on average (≤ b) and a gap 1/q. The Gilbert model with P = q
// and R = 1/S loses P/(P+R) = q·S/(q·S + 1) = q·S/(S + q^b), the same; its bursts average 1/R = S
// and its gaps 1/P = 1/q, the same; but its bursts are geometric, not capped at b: at 30 % one in
// (1−R)^−b ≈ 45 bursts is longer than 3 (netem's order of draws: link/forwarder/forwarder.c).
// → { p, r (fractions), loss, meanBurst, meanGap, longerThanCap (the share of bursts over b), item }
function gemodelFor ({ ratePct, burst }) {
  if (!(ratePct > 0 && ratePct < 100)) throw new Error(`drop rate must be above 0 and below 100 %; got ${ratePct}`)
  if (!(Number.isInteger(burst) && burst >= 1)) throw new Error(`burst must be a whole number of packets, at least 1; got ${burst}`)
  const q = ratePct / 100
  let S = 0
  for (let k = 0; k < burst; k++) S += q ** k
  const r = 1 / S
  const pct = x => `${+(x * 100).toPrecision(8)}%`
  return { p: q, r, loss: q * S / (S + q ** burst), meanBurst: S, meanGap: 1 / q, longerThanCap: (1 - r) ** burst, item: `gemodel=${pct(q)}/${pct(r)}` }
}

const DROP_30 = { ratePct: 30, burst: 3 }
const DROP_2 = { ratePct: 2, burst: 3 }
const BLACKHOLE = { onS: 5, offS: 2 }

const UNLIKE_DROP = 'drop-rate drops only UDP packets (the QUIC cases carry nothing else); here every packet of both directions meets the model, so the TCP lanes meet the same loss; its drops happen after the bottleneck queue, ours on arrival before it; its bursts are capped at 3, ours geometric with the same mean'
const UNLIKE_TIMING = 'its time runs from the simulator\'s start to the end of the test (containers included); ours is the tool\'s own, from its start to the last byte'

// The cases, in the runner's report order. `smoke`: the cell's smaller form for --smoke.
const CASES = [{
  name: 'goodput',
  abbreviation: 'G',
  measurement: true,
  source: 'testcases_quic.py MeasurementGoodput; interop.py _run_measurement',
  scenario: 'simple-p2p --delay=15ms --bandwidth=10Mbps --queue=25',
  network: P2P,
  size: 10 * MiB,
  timeoutS: 60,
  repetitions: 5,
  handshakes: 1,
  unlike: `its goodput counts from the first to the last 1-RTT packet the client receives, ours from the tool's start (its handshake included: 2–3 round trips of 30 ms, under 1.1 % of a 10 MiB transfer); ${UNLIKE_TIMING}`,
  smoke: { size: 1 * MiB }
}, {
  name: 'crosstraffic',
  abbreviation: 'C',
  measurement: true,
  source: 'testcases_quic.py MeasurementCrossTraffic; quic-interop-iperf-endpoint run.sh',
  scenario: 'simple-p2p --delay=15ms --bandwidth=10Mbps --queue=25, beside iperf -c client4 -t 3600 -Z cubic (server → client)',
  network: P2P,
  cross: 'cubic',
  size: 25 * MiB,
  timeoutS: 180,
  repetitions: 5,
  handshakes: 1,
  unlike: 'its iperf (2) flow starts with its containers, ours (iperf3 -C cubic, harness/cross-traffic/iperf.js) with the cell\'s link and runs through every lane\'s runs, each lane behind a link and a flow of its own; the transfer is 25 MiB there and here (the issue\'s "the goodput case" is 10 MiB)',
  smoke: { size: 1 * MiB }
}, {
  name: 'longrtt',
  abbreviation: 'LR',
  measurement: false,
  source: 'testcases_quic.py TestCaseLongRTT (TestCaseHandshake\'s 1 KiB file)',
  scenario: 'simple-p2p --delay=750ms --bandwidth=10Mbps --queue=25',
  network: { ...P2P, delayMs: 750 },
  size: 1 * KiB,
  timeoutS: 60,
  handshakes: 1,
  unlike: 'its check also wants at least 2 ClientHellos (the client\'s first PTO fires inside the 1.5 s round trip); the link counts packets, not ClientHellos, so that part is not checked',
  smoke: { delayMs: 200 }
}, {
  name: 'handshakeloss',
  abbreviation: 'L1',
  measurement: false,
  source: 'testcases_quic.py TestCaseHandshakeLoss; drop-rate-error-model.cc',
  scenario: 'drop-rate --delay=15ms --bandwidth=10Mbps --queue=25 --rate_to_server=30 --rate_to_client=30 --burst_to_server=3 --burst_to_client=3',
  network: P2P,
  drop: DROP_30,
  size: 1 * KiB,
  timeoutS: 300,
  handshakes: 50,
  unlike: `${UNLIKE_DROP}; each handshake is a new tool process (h2load, oha) with one request, one after another, each on a link seed of its own`,
  smoke: { handshakes: 2 }
}, {
  name: 'transferloss',
  abbreviation: 'L2',
  measurement: false,
  source: 'testcases_quic.py TestCaseTransferLoss; drop-rate-error-model.cc',
  scenario: 'drop-rate --delay=15ms --bandwidth=10Mbps --queue=25 --rate_to_server=2 --rate_to_client=2 --burst_to_server=3 --burst_to_client=3',
  network: P2P,
  drop: DROP_2,
  size: 2 * MiB,
  timeoutS: 60,
  handshakes: 1,
  unlike: UNLIKE_DROP,
  smoke: { size: 512 * KiB }
}, {
  name: 'blackhole',
  abbreviation: 'B',
  measurement: false,
  source: 'testcases_quic.py TestCaseBlackhole; blackhole.cc main()',
  scenario: 'blackhole --delay=15ms --bandwidth=10Mbps --queue=25 --on=5s --off=2s',
  network: P2P,
  blackhole: BLACKHOLE,
  size: 10 * MiB,
  timeoutS: 60,
  handshakes: 1,
  unlike: 'its blackhole counts from the simulator\'s start; this link\'s (outage=…/1: once, as its --repeat 1) from the moment each lane\'s link is set, just before its run',
  smoke: { size: 2 * MiB, blackhole: { onS: 1, offS: 0.5 } }
}]

const sizeText = bytes => bytes >= MiB ? `${+(bytes / MiB).toFixed(2)} MiB` : `${+(bytes / KiB).toFixed(2)} KiB`

// A case's pass criterion in words, for the case as it ran (a smoke cell's file is smaller).
function criterionOf (c) {
  const file = `the ${sizeText(c.size)} file`
  if (c.measurement) return `each of its ${c.repetitions} repetitions: one handshake and ${file} intact within ${c.timeoutS} s${c.cross ? ` beside a TCP ${c.cross.toUpperCase()} flow` : ''}; it reports goodput mean (± sd) kbps`
  if (c.handshakes > 1) return `${c.handshakes} handshakes, each a new connection fetching a ${sizeText(c.size)} file, all complete within ${c.timeoutS} s together`
  const dark = c.blackhole ? `, the link dark from ${c.blackhole.onS} s to ${c.blackhole.onS + c.blackhole.offS} s` : ''
  const hellos = c.name === 'longrtt' ? ' (and at least 2 ClientHellos: not checked here)' : ''
  return `one handshake and ${file} intact within ${c.timeoutS} s${dark}${hellos}`
}

// A case's link spec: its bottleneck and its impairment.
function specOf (c) {
  const items = [linkOf(c.network)]
  if (c.drop) items.push(gemodelFor(c.drop).item)
  const time = s => Number.isInteger(s) ? `${s}s` : `${Math.round(s * 1000)}ms`
  if (c.blackhole) items.push(`outage=${time(c.blackhole.onS)}/${time(c.blackhole.offS)}/1`) // once: the simulator's --repeat 1
  if (c.cross) items.push(`cross.down=${c.cross}`)
  return items.join(',')
}

// The case with its smoke form applied (the network's, the blackhole's and the rest).
function smokeOf (c) {
  const { delayMs, blackhole, ...rest } = c.smoke || {}
  return { ...c, ...rest, network: delayMs ? { ...c.network, delayMs } : c.network, blackhole: blackhole || c.blackhole, smoke: null }
}

const caseByName = name => CASES.find(c => c.name === name) || null

module.exports = { CASES, caseByName, specOf, smokeOf, criterionOf, sizeText, linkOf, gemodelFor, P2P, KiB, MiB, NS3_QUEUE_EXTRA }
