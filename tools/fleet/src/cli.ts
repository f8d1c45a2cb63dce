import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseEnv } from "node:util";
import { redactSecrets } from "@switchboard/common";
import { tail } from "./agent-process.js";
import { appConfigFile, startFleet } from "./fleet.js";
import { formatLine } from "./log-lines.js";

/** `npm start`: the whole fleet as local processes until Ctrl-C. */
export async function main(root: string): Promise<void> {
  const envFile = join(root, ".env");
  const fromFile = existsSync(envFile) ? (parseEnv(readFileSync(envFile, "utf8")) as NodeJS.ProcessEnv) : {};
  // Variables already set in the shell win over .env, as with docker compose.
  const env: NodeJS.ProcessEnv = { ...fromFile, ...process.env };
  const persistence =
    env.LANGGRAPH_CHECKPOINT_MONGODB_URI || env.MONGODB_URI
      ? "MongoDB"
      : "memory (set MONGODB_URI to keep conversations)";
  const width = 12;
  // Agents' own lines are masked by their logger; a crash's output or a start-up failure is not.
  const say = (text: string) => process.stdout.write(`${redactSecrets(text)}\n`);

  say(`Starting the Switchboard fleet; conversations persist to ${persistence}.`);
  const fleet = await startFleet({
    root,
    env,
    onLine: (agent, line) => say(formatLine(agent, line, width)),
    onStatus: (agent, status, detail) => {
      if (status === "failed") say(formatLine(agent, `failed to start: ${tail(detail ?? "", 15)}`, width));
    },
  }).catch((error: unknown) => {
    process.stderr.write(
      `The fleet could not start: ${redactSecrets(error instanceof Error ? error.message : String(error))}\n`,
    );
    process.exit(1);
  });

  say("");
  say(`Supervisor   ${fleet.supervisor.url}`);
  for (const agent of fleet.agents) say(`${agent.name.padEnd(12)} ${agent.url}`);
  for (const host of fleet.hosts) {
    say(
      `${host.name.padEnd(12)} ${host.url}/agents  (agents made from ${relative(root, appConfigFile(root, env))})`,
    );
  }
  if (fleet.web) say(`${"web chat".padEnd(12)} ${fleet.web.url}`);
  if (fleet.slackBot) say(`${"slack bot".padEnd(12)} ${fleet.slackBot.url}`);
  if (fleet.webexBot) say(`${"webex bot".padEnd(12)} ${fleet.webexBot.url}`);
  if (fleet.ragServer) say(`${"knowledge".padEnd(12)} ${fleet.ragServer.url}/v1/datasources`);
  for (const failure of fleet.failed) say(`${failure.name.padEnd(12)} not running (see its output above)`);
  say("");
  if (fleet.web) say(`Open the web chat:       ${fleet.web.url}`);
  say("Talk to the supervisor:  npm run chat        (or any A2A client at the URL above)");
  say("Stop the fleet:          Ctrl-C");
  say("");

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    say("Stopping the fleet ...");
    await fleet.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
  // The fleet is only useful with its supervisor: if it dies, say so and stop the rest.
  void fleet.supervisor.process.exited.then(async (code) => {
    if (stopping) return;
    say(`The supervisor exited (code ${code}); stopping the fleet.`);
    await fleet.stop();
    process.exit(1);
  });
}
