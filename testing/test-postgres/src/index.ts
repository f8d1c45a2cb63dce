// A real PostgreSQL (Debian's) on loopback for the tests of what Switchboard keeps on PostgreSQL
// (checkpoints, long-term memory, the knowledge base): a fresh cluster in a temporary folder, trust
// authentication, fsync off. Installed with apt-get when missing (CI machines start without it), as
// the browser tests install Chromium; pgvector too when asked for.
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, readdirSync } from "node:fs";
import { appendFile, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { aptGet } from "./apt.js";
import { ensurePgvector } from "./pgvector.js";

export interface StartPostgresOptions {
  /** Install pgvector for the installed PostgreSQL when missing and create the `vector` extension. */
  pgvector?: boolean;
}

export interface TestPostgres {
  /** postgresql://postgres@127.0.0.1:PORT/postgres */
  dsn: string;
  stop(): Promise<void>;
}

const LIB = "/usr/lib/postgresql";

function binDir(): string | undefined {
  if (!existsSync(LIB)) return undefined;
  const versions = readdirSync(LIB)
    .filter((version) => existsSync(join(LIB, version, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(LIB, versions[0], "bin") : undefined;
}

function ensurePostgres(): string {
  const found = binDir();
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error('PostgreSQL is missing: install it with "sudo apt-get install -y postgresql" (Debian).');
  }
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "--no-install-recommends", "postgresql"],
  ]) {
    const { ok, why } = aptGet(args);
    if (!ok) throw new Error(`apt-get ${args.join(" ")} failed (${why}).`);
  }
  const installed = binDir();
  if (!installed) throw new Error(`apt-get installed postgresql, but no initdb is under ${LIB}.`);
  return installed;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** PostgreSQL refuses to run as root: as root, its commands run as Debian's `postgres` user. */
function run(bin: string, command: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot
    ? ["runuser", ["-u", "postgres", "--", join(bin, command), ...args]]
    : [join(bin, command), args];
  const result = spawnSync(file, argv, { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`${command} failed (exit ${result.status}): ${result.stderr || result.stdout}`);
  }
}

export async function startPostgres(options: StartPostgresOptions = {}): Promise<TestPostgres> {
  const bin = ensurePostgres();
  if (options.pgvector) ensurePgvector(basename(dirname(bin)));
  const dir = await mkdtemp(join(tmpdir(), "switchboard-postgres-"));
  if (process.getuid?.() === 0) {
    const owner = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const group = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    chownSync(dir, Number(owner.stdout.trim()), Number(group.stdout.trim()));
  }
  const data = join(dir, "data");
  run(bin, "initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
  const port = await freePort();
  await appendFile(
    join(data, "postgresql.conf"),
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      "fsync = off",
      "synchronous_commit = off",
      "full_page_writes = off",
      "",
    ].join("\n"),
  );
  run(bin, "pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-w", "start"]);
  if (options.pgvector) {
    run(bin, "psql", ["-h", dir, "-p", String(port), "-U", "postgres", "-qc", "CREATE EXTENSION vector"]);
  }
  return {
    dsn: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      run(bin, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
