import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLogged, withSetupLock } from "@switchboard/vitest-config/run";

/**
 * The uv release that builds every Python venv of the tests and benches. uv installs a venv's
 * wheels side by side and skips pip's bytecode pass: the two test venvs take seconds instead of
 * the minutes pip took in a full `npm test` on 2 cores.
 */
export const UV_VERSION = "0.13.9";

const stampName = ".switchboard-uv";

const pending = new Map<string, Promise<string>>();

/**
 * The uv command: {@link UV_VERSION} from PyPI, installed once with pip into a venv of its own at
 * `<repo root>/.tools/uv-<version>` (made with `basePython`). Parallel processes take turns on a
 * lock beside it.
 */
export function ensureUv(repoRoot: string, basePython: string, log: (line: string) => void): Promise<string> {
  const dir = join(repoRoot, ".tools", `uv-${UV_VERSION}`);
  let result = pending.get(dir);
  if (!result) {
    result = install(dir, basePython, log);
    pending.set(dir, result);
    result.catch(() => pending.delete(dir));
  }
  return result;
}

async function install(dir: string, basePython: string, log: (line: string) => void): Promise<string> {
  const uv = join(dir, "bin", "uv");
  const ready = () => existsSync(uv) && existsSync(join(dir, stampName));
  if (ready()) return uv;
  return withSetupLock(dir, 5, async () => {
    if (ready()) return uv;
    log(`installing uv ${UV_VERSION} into ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    await runLogged(basePython, ["-m", "venv", dir], {
      log,
      purpose: "make a venv for uv",
      failedHint: `Creating a virtualenv with \`${basePython} -m venv\` failed. On Debian/Ubuntu install python3-venv.`,
    });
    await runLogged(
      join(dir, "bin", "python"),
      [
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "--no-input",
        "--progress-bar",
        "off",
        `uv==${UV_VERSION}`,
      ],
      {
        log,
        purpose: "install uv",
        failedHint: "Check that PyPI is reachable (pip's index settings: `pip config list`).",
      },
    );
    writeFileSync(join(dir, stampName), `${UV_VERSION}\n`);
    return uv;
  });
}

/**
 * The environment uv runs in: never a Python of its own download; the machine's certificate store
 * trusted (where a company's or a mirror's CA is installed: uv's own bundle knows only public
 * ones); and pip's index and CA file carried over where uv's own are unset (uv reads no pip
 * configuration).
 */
export function uvEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    UV_PYTHON_DOWNLOADS: "never",
    UV_SYSTEM_CERTS: process.env.UV_SYSTEM_CERTS ?? "1",
    ...extra,
  };
  if (!env.UV_DEFAULT_INDEX && !env.UV_INDEX_URL && env.PIP_INDEX_URL)
    env.UV_DEFAULT_INDEX = env.PIP_INDEX_URL;
  if (!env.SSL_CERT_FILE && env.PIP_CERT) env.SSL_CERT_FILE = env.PIP_CERT;
  return env;
}
