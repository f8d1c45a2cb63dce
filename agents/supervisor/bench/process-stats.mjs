// Loaded into each agent process the supervisor bench starts (node --import): counts the MongoDB
// commands the process sends, by command and collection (the driver's command monitoring). On
// SIGUSR2 it writes them and its CPU time as JSON to BENCH_STATS_FILE (with its pid, written once
// at start, and a sequence number), so the bench can take the difference over a batch of turns.
import { renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const file = process.env.BENCH_STATS_FILE;
if (file) {
  // The agent's own driver: the one module every package of the workspace resolves to.
  const { MongoClient } = createRequire(import.meta.url)("mongodb");
  const commands = {};
  const connect = MongoClient.prototype.connect;
  MongoClient.prototype.connect = function (...args) {
    if (!this.benchCounted) {
      this.benchCounted = true;
      this.monitorCommands = true;
      this.on("commandStarted", (event) => {
        const target = event.command?.[event.commandName];
        const name = typeof target === "string" ? `${event.commandName} ${target}` : event.commandName;
        commands[name] = (commands[name] ?? 0) + 1;
      });
    }
    return connect.apply(this, args);
  };
  let seq = 0;
  const write = () => {
    const { user, system } = process.cpuUsage();
    const stats = { pid: process.pid, seq: seq++, commands, cpuMs: (user + system) / 1000 };
    writeFileSync(`${file}.tmp`, JSON.stringify(stats));
    renameSync(`${file}.tmp`, file);
  };
  process.on("SIGUSR2", write);
  write();
}
