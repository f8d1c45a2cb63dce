import { spawnSync } from "node:child_process";

/** Runs apt-get without questions, its output shown; ok when it exited 0. */
export function aptGet(args: string[]): { ok: boolean; why: string } {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const result = spawnSync("apt-get", args, { env, stdio: ["ignore", "inherit", "inherit"] });
  return { ok: result.status === 0, why: `exit ${result.status ?? result.error?.message}` };
}
