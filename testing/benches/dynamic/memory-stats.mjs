// Loaded into each process the dynamic bench starts (node --import): on SIGUSR2 it writes what the
// process holds, as node counts it (process.memoryUsage(): the JS heap, the memory of buffers and
// native objects V8 is told of, resident set), as JSON to BENCH_MEMORY_FILE with its pid and a
// sequence number, so the bench can tell the heap from the rest of the resident set. When the bench
// has left a file `<BENCH_MEMORY_FILE>.want-heap`, it first writes a V8 heap snapshot (after reading
// its memory: the snapshot's full GC must not change the numbers) to `<BENCH_MEMORY_FILE>.heapsnapshot`.
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { writeHeapSnapshot } from "node:v8";

const file = process.env.BENCH_MEMORY_FILE;
if (file) {
  let seq = 0;
  const write = () => {
    const memory = process.memoryUsage();
    if (existsSync(`${file}.want-heap`)) {
      rmSync(`${file}.want-heap`);
      writeHeapSnapshot(`${file}.heapsnapshot`);
    }
    writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, seq: seq++, memory }));
    renameSync(`${file}.tmp`, file);
  };
  process.on("SIGUSR2", write);
  write();
}
