// Loaded into each process the dynamic bench starts (node --import): on SIGUSR2 it writes what the
// process holds, as node counts it (process.memoryUsage(): the JS heap, the memory of buffers and
// native objects V8 is told of, resident set), as JSON to BENCH_STATS_FILE with its pid and a
// sequence number, so the bench can tell the heap from the rest of the resident set.
import { renameSync, writeFileSync } from "node:fs";

const file = process.env.BENCH_STATS_FILE;
if (file) {
  let seq = 0;
  const write = () => {
    const stats = { pid: process.pid, seq: seq++, memory: process.memoryUsage() };
    writeFileSync(`${file}.tmp`, JSON.stringify(stats));
    renameSync(`${file}.tmp`, file);
  };
  process.on("SIGUSR2", write);
  write();
}
