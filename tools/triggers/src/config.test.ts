import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTasks } from "./config.js";

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "triggers-config-")), "triggers.yaml");
  writeFileSync(path, text);
  return path;
}

const task = (trigger: string, prompt = "Look") => `
tasks:
  - id: t1
    name: T
    prompt: "${prompt}"
    trigger: ${trigger}
`;

describe("loadTasks", () => {
  it("reads CAIPE's task shape, the secret from the variable it names, a cron schedule in its zone", () => {
    const tasks = loadTasks(
      file(`${task("{ type: webhook, provider: github, secret_env: GH_SECRET }")}
  - id: t2
    name: Weekdays
    prompt: "Post the open P1s"
    trigger: { type: cron, schedule: "0 9 * * 1-5", timezone: Europe/Berlin }
    deliver_to: [{ slack: { channel: C1 } }, { webhook: { url: "https://example.com/hook" } }]
`),
      { GH_SECRET: "s3" },
      undefined,
    );
    expect(tasks.get("t1")?.trigger).toEqual({
      kind: "webhook",
      provider: "github",
      secret: "s3",
      dedupHeader: undefined,
    });
    expect(tasks.get("t2")?.trigger).toEqual({
      kind: "cron",
      schedule: "0 9 * * 1-5",
      timezone: "Europe/Berlin",
    });
    expect(tasks.get("t2")?.destinations).toEqual([
      { kind: "slack", channel: "C1" },
      { kind: "webhook", url: "https://example.com/hook" },
    ]);
  });

  it("refuses, naming the fix: a webhook with no secret, a secret variable unset, a bad schedule or zone, a bare value", () => {
    expect(() => loadTasks(file(task("{ type: webhook, provider: github }")), {}, undefined)).toThrow(
      /no secret: set trigger.secret_env \(or WEBHOOK_SECRET/,
    );
    expect(() => loadTasks(file(task("{ type: webhook, secret_env: NOPE }")), {}, undefined)).toThrow(
      /NOPE, which is not set/,
    );
    expect(() => loadTasks(file(task('{ type: cron, schedule: "61 * * * *" }')), {}, undefined)).toThrow(
      /trigger.schedule "61 \* \* \* \*"/,
    );
    expect(() =>
      loadTasks(file(task('{ type: cron, schedule: "0 9 * * *", timezone: Mars/Olympus }')), {}, undefined),
    ).toThrow(/IANA time zone/);
    expect(() => loadTasks(file(task("{ type: webhook }", "Do {{{x}}}")), {}, "fallback")).toThrow(
      /puts x in unescaped/,
    );
    expect(() => loadTasks(file(task("{ type: webhook, provider: jira }")), {}, "fallback")).toThrow(
      /trigger.provider/,
    );
  });

  it("a TRIGGERS_CONFIG_FILE naming no file says so and names the setting", () => {
    expect(() => loadTasks(join(tmpdir(), "no-such-dir", "triggers.yaml"), {}, "s")).toThrow(
      /there is no such file; set TRIGGERS_CONFIG_FILE to the path/,
    );
  });

  it("reads a task's own client from the variables it names; a schedule may have one too", () => {
    const tasks = loadTasks(
      file(`${task("{ type: webhook, client_id_env: T1_ID, client_secret_env: T1_SECRET }")}
  - id: t2
    name: Nightly
    prompt: "Look"
    trigger: { type: cron, schedule: "0 2 * * *", client_id_env: T2_ID, client_secret_env: T2_SECRET }
  - id: t3
    name: Service's
    prompt: "Look"
    trigger: { type: cron, schedule: "0 3 * * *" }
`),
      { T1_ID: " triggers-t1 ", T1_SECRET: "s1", T2_ID: "triggers-t2", T2_SECRET: "s2" },
      "fallback",
    );
    expect(tasks.get("t1")?.client).toEqual({
      id: "triggers-t1",
      secret: "s1",
      settings: 'T1_ID and T1_SECRET (task "t1"\'s client)',
    });
    expect(tasks.get("t2")?.client?.id).toBe("triggers-t2");
    expect(tasks.get("t3")?.client).toBeUndefined();
  });

  it("refuses a task's client that cannot be had, naming the variables, never their values", () => {
    const both = "{ type: webhook, client_id_env: T1_ID, client_secret_env: T1_SECRET }";
    expect(() => loadTasks(file(task(both)), { T1_ID: "c" }, "fallback")).toThrow(
      /task "t1" acts as its own client, but T1_SECRET is not set: set it to the client's secret/,
    );
    expect(() => loadTasks(file(task(both)), { T1_SECRET: "hidden-value" }, "fallback")).toThrow(
      /but T1_ID is not set: set it to the client's id/,
    );
    expect(() => loadTasks(file(task(both)), { T1_ID: " ", T1_SECRET: "" }, "fallback")).toThrow(
      /but T1_ID and T1_SECRET are not set/,
    );
    expect(() => loadTasks(file(task(both)), { T1_SECRET: "hidden-value" }, "fallback")).not.toThrow(
      /hidden-value/,
    );
    expect(() =>
      loadTasks(file(task("{ type: webhook, client_id_env: T1_ID }")), { T1_ID: "c" }, "fallback"),
    ).toThrow(/give both trigger.client_id_env and trigger.client_secret_env/);
    // A client written into the file is not taken: only the variables' names are.
    expect(() => loadTasks(file(task("{ type: webhook, client_secret: s }")), {}, "fallback")).toThrow(
      /client_secret/,
    );
  });
});
