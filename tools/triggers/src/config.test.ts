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
});
