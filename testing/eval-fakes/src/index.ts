import type { CaseVendors, EvalCase } from "@switchboard/eval";
import { type FakeGithub, type GithubSeed, startFakeGithub } from "@switchboard-testing/fake-github";
import { type FakeJira, type JiraSeed, startFakeJira } from "@switchboard-testing/fake-jira";

/** The vendors a case can be seeded for, each with the fake that stands in for it. */
export const FAKED_VENDORS = ["jira", "github"] as const;
export type FakedVendor = (typeof FAKED_VENDORS)[number];

const JIRA = { email: "agent@example.com", token: "fake-jira-token" };
const GITHUB_TOKEN = "ghp_fake_token";

type Fake = FakeJira | FakeGithub;

export interface CaseFakes extends CaseVendors {
  /** The fleet's settings for these vendors: a fake that answers between cases, and its credentials. */
  env: Record<string, string>;
  /** Each vendor's fake of the latest case (its state stays readable after the case ends). */
  current(vendor: FakedVendor): Fake | undefined;
  close(): Promise<void>;
}

function start(vendor: FakedVendor, seed: unknown): Promise<Fake> {
  return vendor === "jira"
    ? startFakeJira({ ...JIRA, ...(seed ? { seed: seed as Partial<JiraSeed> } : {}) })
    : startFakeGithub({ token: GITHUB_TOKEN, ...(seed ? { seed: seed as Partial<GithubSeed> } : {}) });
}

/**
 * Fakes for evaluation cases: before each case a fresh fake per vendor, seeded with the case's
 * `vendors.<vendor>` (the fake's own seed format, replacing the parts it names), so one case's
 * changes never reach another; after it, they are closed.
 */
export async function startCaseFakes(vendors: readonly FakedVendor[] = FAKED_VENDORS): Promise<CaseFakes> {
  const standing = new Map<FakedVendor, Fake>();
  for (const vendor of vendors) standing.set(vendor, await start(vendor, undefined));
  const running = new Map<string, Map<FakedVendor, Fake>>();
  let latest: Map<FakedVendor, Fake> | undefined;
  const jira = standing.get("jira") as FakeJira | undefined;
  const github = standing.get("github") as FakeGithub | undefined;
  return {
    env: {
      ...(jira
        ? { ATLASSIAN_API_URL: jira.url, ATLASSIAN_EMAIL: JIRA.email, ATLASSIAN_TOKEN: JIRA.token }
        : {}),
      ...(github ? { GITHUB_API_URL: github.url, GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN } : {}),
    },
    async begin(c: EvalCase) {
      const seeds = c.vendors ?? {};
      const extra = Object.keys(seeds).filter((name) => !vendors.includes(name as FakedVendor));
      if (extra.length)
        throw new Error(
          `${c.key} seeds ${extra.join(", ")}, which no fake here stands in for (${vendors.join(", ")}).`,
        );
      const fakes = new Map<FakedVendor, Fake>();
      for (const vendor of vendors) fakes.set(vendor, await start(vendor, seeds[vendor]));
      running.set(c.key, fakes);
      latest = fakes;
      return Object.fromEntries([...fakes].map(([vendor, fake]) => [vendor, fake.url]));
    },
    async end(c: EvalCase) {
      const fakes = running.get(c.key);
      running.delete(c.key);
      await Promise.all([...(fakes?.values() ?? [])].map((fake) => fake.close()));
    },
    current: (vendor) => latest?.get(vendor),
    close: async () => {
      await Promise.all(
        [...standing.values(), ...[...running.values()].flatMap((m) => [...m.values()])].map((f) =>
          f.close(),
        ),
      );
    },
  };
}
