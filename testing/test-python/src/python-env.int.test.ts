import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensurePythonEnv, findRepoRoot, pythonScriptsDir } from "./python-env.js";

describe("ensurePythonEnv", () => {
  const scratch = mkdtempSync(join(tmpdir(), "switchboard-python-env-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("puts the venv at <repo root>/.venv and, when warm, returns without reinstalling", async () => {
    const logs: string[] = [];
    const env = await ensurePythonEnv({ onLog: (line) => logs.push(line) });
    expect(env.venvDir).toBe(join(findRepoRoot(), ".venv"));
    expect(env.name).toBe("default");
    expect(logs).toEqual([]);
  });

  it("puts the a2a-sdk 1.x venv at <repo root>/.venv-a2a1, apart from the 0.3 one", async () => {
    const logs: string[] = [];
    const env = await ensurePythonEnv({ name: "a2a1", onLog: (line) => logs.push(line) });
    expect(env.venvDir).toBe(join(findRepoRoot(), ".venv-a2a1"));
    expect(env.requirementsFile).toBe(join(pythonScriptsDir, "requirements-a2a1.txt"));
    expect(logs).toEqual([]);
  });

  it.each([
    { name: "default", requirements: "requirements.txt", packages: ["a2a-sdk", "moto", "uvicorn"] },
    { name: "a2a1", requirements: "requirements-a2a1.txt", packages: ["a2a-sdk", "uvicorn"] },
  ] as const)(
    "installs exactly the versions pinned in $requirements",
    async ({ name, requirements, packages }) => {
      const env = await ensurePythonEnv({ name });
      const pins = Object.fromEntries(
        [
          ...readFileSync(join(pythonScriptsDir, requirements), "utf8").matchAll(
            /^([\w-]+)(?:\[.*\])?==(\S+)/gm,
          ),
        ].map((m) => [m[1], m[2]]),
      );
      expect(Object.keys(pins).sort()).toEqual([...packages]);
      const installed = JSON.parse(
        execFileSync(env.python, [
          "-c",
          `import json, importlib.metadata as m; print(json.dumps({n: m.version(n) for n in ${JSON.stringify(packages)}}))`,
        ]).toString(),
      );
      expect(installed).toEqual(pins);
    },
  );

  it("names the missing interpreter and the fix when python3 cannot be run", async () => {
    await expect(
      ensurePythonEnv({ basePython: join(scratch, "no-such-python3"), venvDir: join(scratch, "venv") }),
    ).rejects.toThrow(/Cannot run `.*no-such-python3`.*Install Python 3\.10\+.*SWITCHBOARD_PYTHON/s);
  });
});
