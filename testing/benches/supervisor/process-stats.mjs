// Loaded into each agent process the supervisor bench starts (node --import): counts the MongoDB
// commands the process sends, by command and collection. On SIGUSR2 it writes them and its CPU time
// as JSON to BENCH_STATS_FILE (with its pid, written once at start, and a sequence number), so the
// bench can take the difference over a batch of turns.
//
// The count is one increment in the driver's `Connection.prototype.command`, not the driver's command
// monitoring: monitoring copies every command and reply into an event, and this process also serves
// the throughput rounds, which would then measure that copying too.
import { renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The connection handshake and the server monitor's heartbeats: the driver's, not the agent's. */
const HANDSHAKES = new Set(["hello", "isMaster", "ismaster"]);

const file = process.env.BENCH_STATS_FILE;
if (file) {
  // The agent's own driver: the one module every package of the workspace resolves to.
  const driver = dirname(createRequire(import.meta.url).resolve("mongodb"));
  const { Connection } = createRequire(import.meta.url)(join(driver, "cmap", "connection.js"));
  const commands = {};
  const command = Connection.prototype.command;
  Connection.prototype.command = function (ns, document, ...rest) {
    const commandName = Object.keys(document ?? {})[0] ?? "";
    if (!HANDSHAKES.has(commandName)) {
      const target = document[commandName];
      const name = typeof target === "string" ? `${commandName} ${target}` : commandName;
      commands[name] = (commands[name] ?? 0) + 1;
    }
    return command.call(this, ns, document, ...rest);
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
