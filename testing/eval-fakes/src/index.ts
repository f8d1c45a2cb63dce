import type { CaseVendors, EvalCase } from "@switchboard/eval";
import { type GithubSeed, startFakeGithub } from "@switchboard-testing/fake-github";
import { type JiraSeed, startFakeJira } from "@switchboard-testing/fake-jira";
import {
  startFakeArgoCd,
  startFakeBackstage,
  startFakeConfluence,
  startFakeGitLab,
  startFakeKomodor,
  startFakePagerDuty,
  startFakePetstore,
  startFakeSlack,
  startFakeSplunk,
  startFakeVictorOps,
  startFakeWebex,
} from "@switchboard-testing/fake-vendors";

/** A running fake as the fleet sees it: where its agent points, with which credentials. */
interface Fake {
  /** The vendor's settings for its agent (URL and credentials). */
  env: Record<string, string>;
  /** What the vendor's URL variable is set to (the proxy forwards a case's calls there). */
  url: string;
  /** The fake itself, to look at what a case changed. */
  server: unknown;
  close(): Promise<void>;
}

type Starter = (seed: unknown) => Promise<Fake>;

const JIRA = { email: "agent@example.com", token: "fake-jira-token" };
const GITHUB_TOKEN = "ghp_fake_token";

/** Each vendor's fake and how its agent is pointed at it (the agents' own tests wire them so). */
const FAKES: Record<string, Starter> = {
  jira: async (seed) => {
    const f = await startFakeJira({ ...JIRA, ...(seed ? { seed: seed as Partial<JiraSeed> } : {}) });
    return {
      url: f.url,
      env: { ATLASSIAN_API_URL: f.url, ATLASSIAN_EMAIL: JIRA.email, ATLASSIAN_TOKEN: JIRA.token },
      server: f,
      close: () => f.close(),
    };
  },
  github: async (seed) => {
    const f = await startFakeGithub({
      token: GITHUB_TOKEN,
      ...(seed ? { seed: seed as Partial<GithubSeed> } : {}),
    });
    return {
      url: f.url,
      env: { GITHUB_API_URL: f.url, GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN },
      server: f,
      close: () => f.close(),
    };
  },
  argocd: unseeded(startFakeArgoCd, (f) => ({ ARGOCD_API_URL: f.url, ARGOCD_TOKEN: f.token })),
  backstage: unseeded(startFakeBackstage, (f) => ({ BACKSTAGE_URL: f.url, BACKSTAGE_API_TOKEN: f.token })),
  confluence: unseeded(startFakeConfluence, (f) => ({
    CONFLUENCE_API_URL: f.url,
    CONFLUENCE_USERNAME: f.email,
    CONFLUENCE_API_TOKEN: f.token,
  })),
  gitlab: unseeded(startFakeGitLab, (f) => ({ GITLAB_HOST: f.url, GITLAB_TOKEN: f.token })),
  komodor: unseeded(startFakeKomodor, (f) => ({ KOMODOR_API_URL: f.url, KOMODOR_TOKEN: f.token })),
  pagerduty: unseeded(startFakePagerDuty, (f) => ({
    PAGERDUTY_API_URL: f.url,
    PAGERDUTY_API_KEY: f.apiKey,
    PAGERDUTY_FROM_EMAIL: f.fromEmail,
  })),
  petstore: unseeded(startFakePetstore, (f) => ({ PETSTORE_API_URL: f.apiUrl, PETSTORE_API_KEY: f.apiKey })),
  slack: unseeded(startFakeSlack, (f) => ({ SLACK_API_URL: f.apiUrl, SLACK_BOT_TOKEN: f.token })),
  splunk: unseeded(startFakeSplunk, (f) => ({ SPLUNK_API_URL: f.url, SPLUNK_TOKEN: f.token })),
  victorops: unseeded(startFakeVictorOps, (f) => ({
    VICTOROPS_API_URL: f.url,
    X_VO_API_ID: f.apiId,
    X_VO_API_KEY: f.apiKey,
    VICTOROPS_USERNAME: f.username,
  })),
  webex: unseeded(startFakeWebex, (f) => ({ WEBEX_API_URL: f.apiUrl, WEBEX_TOKEN: f.token })),
};

/** The vendors a case can run on: Jira's and GitHub's fakes take a case's seed, the others start as they are. */
export const FAKED_VENDORS = Object.keys(FAKES);
export const SEEDED_VENDORS = ["jira", "github"];

/** A fake that takes no seed: each case gets a fresh one in its default state. */
function unseeded<F extends { close(): Promise<void> }>(
  start: () => Promise<F>,
  env: (fake: F) => Record<string, string>,
): Starter {
  return async (seed) => {
    if (seed !== undefined) throw new Error("this vendor's fake takes no seed (only jira and github do)");
    const fake = await start();
    const settings = env(fake);
    const url =
      Object.entries(settings).find(([name]) => name.endsWith("_URL") || name === "GITLAB_HOST")?.[1] ?? "";
    return { url, env: settings, server: fake, close: () => fake.close() };
  };
}

export interface CaseFakes extends CaseVendors {
  /** The fleet's settings for these vendors: a fake that answers between cases, and its credentials. */
  env: Record<string, string>;
  /** The vendors these fakes stand in for. */
  vendors: string[];
  /** Each vendor's fake of the latest case (its state stays readable after the case ends). */
  current(vendor: string): unknown;
  close(): Promise<void>;
}

/**
 * Fakes for evaluation cases: before each case, a fresh fake for each vendor it names in `vendors`
 * (seeded with that state: the fake's own seed format, replacing the parts it names) and for each
 * agent it expects to reach, so one case's changes never reach another; after it, they are closed.
 * Other vendors' calls go to the fakes standing between cases.
 */
export async function startCaseFakes(vendors: readonly string[] = FAKED_VENDORS): Promise<CaseFakes> {
  const unknown = vendors.filter((vendor) => !FAKES[vendor]);
  if (unknown.length)
    throw new Error(`No fake for ${unknown.join(", ")} (there are: ${FAKED_VENDORS.join(", ")}).`);
  const standing = await Promise.all(vendors.map((vendor) => (FAKES[vendor] as Starter)(undefined)));
  const running = new Map<string, Map<string, Fake>>();
  let latest: Map<string, Fake> | undefined;
  return {
    vendors: [...vendors],
    env: Object.assign({}, ...standing.map((fake) => fake.env)),
    async begin(c: EvalCase) {
      const seeds = c.vendors ?? {};
      const extra = Object.keys(seeds).filter((name) => !vendors.includes(name));
      if (extra.length)
        throw new Error(
          `${c.key} seeds ${extra.join(", ")}, which no fake here stands in for (${vendors.join(", ")}).`,
        );
      const reached = c.expect.agents?.alternatives.flat() ?? [];
      const fresh = vendors.filter((vendor) => vendor in seeds || reached.includes(vendor));
      const fakes = new Map<string, Fake>();
      for (const vendor of fresh) fakes.set(vendor, await (FAKES[vendor] as Starter)(seeds[vendor]));
      running.set(c.key, fakes);
      latest = fakes;
      return Object.fromEntries([...fakes].map(([vendor, fake]) => [vendor, fake.url]));
    },
    async end(c: EvalCase) {
      const fakes = running.get(c.key);
      running.delete(c.key);
      await Promise.all([...(fakes?.values() ?? [])].map((fake) => fake.close()));
    },
    current: (vendor) => latest?.get(vendor)?.server,
    close: async () => {
      await Promise.all(
        [...standing, ...[...running.values()].flatMap((m) => [...m.values()])].map((f) => f.close()),
      );
    },
  };
}
