"""The write path of one chunk (what `run` does per chunk after the kernel), main's against
this tree's, in CPU milliseconds: interleaved medians of 9 repeats at one thread.

    python benchmarks/bench_write_path.py "classic(players=4)" 31251
    python benchmarks/bench_write_path.py "spin2025(players=4)" 31251

* ``kernel``: ``play_chunk`` of the whole chunk;
* ``old``: summary counts, ``rounds_arrow`` / ``spins_arrow`` of the whole chunk's output,
  Parquet with pyarrow's defaults, SHA-256 (the write path before issue 11's scale2 work);
* ``new``: what ``runner.run_chunk`` does: the round columns gathered from kernel batches
  of ``runner.KERNEL_BATCH`` games (``results.ChunkColumns``; kernel time excluded), the
  spin part encoded batch by batch (``results.PartBuffer``), summary counts, Parquet with
  ``results.part_write_options``, SHA-256.

``kernel / (kernel + write path)`` bounds run/kernel: the worker threads play and write, so
with free cores and nothing serialized `run` cannot beat it.

Measured 2026-12-01, machine shared (load average 5.5):

    classic(players=4) chunk 31251: kernel 170.9 ms CPU; write path old 33.5 ms (19.6%),
      new 23.5 ms (13.8%); part bytes old 915,968 new 690,264; bound old 0.836 new 0.879
    spin2025(players=4) chunk 31251: kernel 279.1 ms CPU; write path old 197.6 ms (70.8%),
      new 125.0 ms (44.8%); part bytes old 4,197,528 new 3,696,584; bound old 0.585 new 0.691

Measured again later that day (load average 4), after the parts kept Parquet statistics
only for their key columns, the round columns were resolved once per chunk and the spin
part was encoded batch by batch:

    classic(players=4) chunk 31251: kernel 115.7 ms CPU; write path old 21.9 ms (18.9%),
      new 12.1 ms (10.5%); part bytes old 915,968 new 688,496; bound old 0.841 new 0.905
    spin2025(players=4) chunk 31251: kernel 256.4 ms CPU; write path old 160.8 ms (62.7%),
      new 94.8 ms (37.0%); part bytes old 4,197,528 new 3,698,734; bound old 0.615 new 0.730
"""
import time, sys, hashlib, statistics, numpy as np
import pyarrow as pa, pyarrow.parquet as pq
from unospin_sim.run.chunk import _encoded, _play, KERNEL_BATCH
from unospin_sim.results import ChunkColumns, PartBuffer, part_write_options, rounds_arrow, spins_arrow
from unospin_sim.engine import layout as L
from unospin_sim.analysis.summary import SummaryAccumulator
ed, n = sys.argv[1], int(sys.argv[2])
rules, ki = _encoded(ed, ",".join(["random"] * 4), False)
wheel = bool(rules.wheel_spaces())
def write(tab, **kw):
    sink = pa.BufferOutputStream(); pq.write_table(tab, sink, **kw); b = sink.getvalue()
    hashlib.sha256(memoryview(b)).hexdigest(); return b.size
def old(seed):
    o, s, rec = _play(rules, ki, seed, False, 0, n)
    t = time.process_time()
    SummaryAccumulator.of_rounds(4, np.arange(n), o[:, L.O_WINNER], o[:, L.O_TURNS])
    size = write(rounds_arrow(rules, 0, o, s))
    if wheel: size += write(spins_arrow(rules, rec))
    return time.process_time() - t, size
def new(seed):
    cols = ChunkColumns(rules, n, spins=False); tk = 0.0; tw = 0.0
    spin_part = PartBuffer() if wheel else None
    for a in range(0, n, KERNEL_BATCH):
        b = min(KERNEL_BATCH, n - a)
        t = time.process_time(); o, s, rec = _play(rules, ki, seed, False, a, b); tk += time.process_time() - t
        t = time.process_time(); cols.add(a, o, s, rec)
        if wheel:
            spin_part.add(spins_arrow(rules, rec))
        tw += time.process_time() - t
    t = time.process_time()
    SummaryAccumulator.of_rounds(4, cols.rounds["game"], cols.rounds["winner"], cols.rounds["turns"])
    tab = cols.rounds_arrow(); size = write(tab, **part_write_options(tab))
    if wheel:
        b = spin_part.getvalue(); hashlib.sha256(memoryview(b)).hexdigest(); size += b.size
    return tw + time.process_time() - t, size
def kern(seed):
    t = time.process_time(); _play(rules, ki, seed, False, 0, n); return time.process_time() - t, 0
res = {"kernel": [], "old": [], "new": []}; sizes = {}
for rep in range(9):
    for k, f in (("kernel", kern), ("old", old), ("new", new))[rep % 3:] + (("kernel", kern), ("old", old), ("new", new))[:rep % 3]:
        c, sz = f(rep); res[k].append(c); sizes[k] = sz
m = {k: statistics.median(v) * 1000 for k, v in res.items()}
print(f"{ed} chunk {n}: kernel {m['kernel']:.1f} ms CPU; write path old {m['old']:.1f} ms ({m['old']/m['kernel']*100:.1f}%), "
      f"new {m['new']:.1f} ms ({m['new']/m['kernel']*100:.1f}%); part bytes old {sizes['old']:,} new {sizes['new']:,}; "
      f"bound on run/kernel: old {m['kernel']/(m['kernel']+m['old']):.3f} new {m['kernel']/(m['kernel']+m['new']):.3f}")
