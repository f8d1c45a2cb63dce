import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { CaseVendors, EvalCase } from "@switchboard/eval";
import { type GithubSeed, startFakeGithub } from "@switchboard-testing/fake-github";
import { type JiraSeed, startFakeJira } from "@switchboard-testing/fake-jira";
import {
  type ArgoSeed,
  type BackstageSeed,
  type ConfluenceSeed,
  type GitLabSeed,
  type KomodorSeed,
  type PagerDutySeed,
  type PetstoreSeed,
  type SlackSeed,
  type SplunkSeed,
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
  type VictorOpsSeed,
  type WebexSeed,
} from "@switchboard-testing/fake-vendors";
import { awsOnMoto } from "./aws.js";
import type { PlacedVendor } from "./placed.js";
import { openMeteo } from "./weather.js";

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
  argocd: seeded(
    (seed) => startFakeArgoCd({ seed: seed as ArgoSeed }),
    (f) => ({ ARGOCD_API_URL: f.url, ARGOCD_TOKEN: f.token }),
  ),
  backstage: seeded(
    (seed) => startFakeBackstage({ seed: seed as BackstageSeed }),
    (f) => ({ BACKSTAGE_URL: f.url, BACKSTAGE_API_TOKEN: f.token }),
  ),
  confluence: seeded(
    (seed) => startFakeConfluence({ seed: seed as ConfluenceSeed }),
    (f) => ({ CONFLUENCE_API_URL: f.url, CONFLUENCE_USERNAME: f.email, CONFLUENCE_API_TOKEN: f.token }),
  ),
  gitlab: seeded(
    (seed) => startFakeGitLab({ seed: seed as GitLabSeed }),
    (f) => ({ GITLAB_HOST: f.url, GITLAB_TOKEN: f.token }),
  ),
  komodor: seeded(
    (seed) => startFakeKomodor({ seed: seed as KomodorSeed }),
    (f) => ({ KOMODOR_API_URL: f.url, KOMODOR_TOKEN: f.token }),
  ),
  pagerduty: seeded(
    (seed) => startFakePagerDuty({ seed: seed as PagerDutySeed }),
    (f) => ({ PAGERDUTY_API_URL: f.url, PAGERDUTY_API_KEY: f.apiKey, PAGERDUTY_FROM_EMAIL: f.fromEmail }),
  ),
  petstore: seeded(
    (seed) => startFakePetstore({ seed: seed as PetstoreSeed }),
    (f) => ({ PETSTORE_API_URL: f.apiUrl, PETSTORE_API_KEY: f.apiKey }),
  ),
  slack: seeded(
    (seed) => startFakeSlack({ seed: seed as SlackSeed }),
    (f) => ({ SLACK_API_URL: f.apiUrl, SLACK_BOT_TOKEN: f.token }),
  ),
  splunk: seeded(
    (seed) => startFakeSplunk({ seed: seed as SplunkSeed }),
    (f) => ({ SPLUNK_API_URL: f.url, SPLUNK_TOKEN: f.token }),
  ),
  victorops: seeded(
    (seed) => startFakeVictorOps({ seed: seed as VictorOpsSeed }),
    (f) => ({
      VICTOROPS_API_URL: f.url,
      X_VO_API_ID: f.apiId,
      X_VO_API_KEY: f.apiKey,
      VICTOROPS_USERNAME: f.username,
    }),
  ),
  webex: seeded(
    (seed) => startFakeWebex({ seed: seed as WebexSeed }),
    (f) => ({ WEBEX_API_URL: f.apiUrl, WEBEX_TOKEN: f.token }),
  ),
};

/**
 * The vendors the fleet reaches at one address for the whole evaluation, each case given fresh state
 * there: AWS (moto, reset and seeded through the AWS SDK) and Open-Meteo (two APIs the proxies do not
 * stand for; its places replaced).
 */
const PLACED: Record<string, () => Promise<PlacedVendor>> = {
  aws: async () => awsOnMoto(await freePort()),
  weather: openMeteo,
};

/** Every vendor a case can seed (`vendors: { <name>: <seed> }`), each fake taking its own seed shape. */
export const FAKED_VENDORS = [...Object.keys(FAKES), ...Object.keys(PLACED)];

/** A fake seeded with a case's state in its own shape (no state named: its default). */
function seeded<F extends { close(): Promise<void> }>(
  start: (seed: unknown) => Promise<F>,
  env: (fake: F) => Record<string, string>,
): Starter {
  return async (seed) => {
    const fake = await start(seed);
    const settings = env(fake);
    const url =
      Object.entries(settings).find(([name]) => name.endsWith("_URL") || name === "GITLAB_HOST")?.[1] ?? "";
    return { url, env: settings, server: fake, close: () => fake.close() };
  };
}

/** A free loopback port for a vendor that must keep its address while its fakes come and go. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface CaseFakes extends CaseVendors {
  /** The fleet's settings for these vendors: where each stands between cases, and its credentials. */
  env: Record<string, string>;
  /** The vendors behind the evaluation's proxies (each case's fake is where its calls are forwarded). */
  vendors: string[];
  /** Each vendor's fake of the latest case (its state stays readable after the case ends). */
  current(vendor: string): unknown;
  /** Starts AWS's moto now (seconds of Python) rather than at the first case reaching AWS. */
  warm(vendor: "aws"): void;
  close(): Promise<void>;
}

/**
 * Fakes for evaluation cases: before each case, a fresh fake for each vendor it names in `vendors`
 * (seeded with that state in the fake's own seed shape, replacing the parts it names) and for each
 * agent it expects to reach, so one case's changes never reach another; after it, they are closed.
 * Other vendors' calls go to the fakes standing between cases. AWS and Open-Meteo stand at one
 * address throughout: a case gets fresh state there, and after it the default again.
 */
export async function startCaseFakes(vendors: readonly string[] = FAKED_VENDORS): Promise<CaseFakes> {
  const unknown = vendors.filter((vendor) => !FAKED_VENDORS.includes(vendor));
  if (unknown.length)
    throw new Error(`No fake for ${unknown.join(", ")} (there are: ${FAKED_VENDORS.join(", ")}).`);
  const proxied = vendors.filter((vendor) => FAKES[vendor]);
  const placedNames = vendors.filter((vendor) => PLACED[vendor]);
  const [standing, placedList] = await Promise.all([
    Promise.all(proxied.map((vendor) => (FAKES[vendor] as Starter)(undefined))),
    Promise.all(placedNames.map((vendor) => (PLACED[vendor] as () => Promise<PlacedVendor>)())),
  ]);
  const placed = new Map(placedNames.map((vendor, index) => [vendor, placedList[index] as PlacedVendor]));
  const running = new Map<string, { fakes: Map<string, Fake>; placed: string[] }>();
  let latest: Map<string, Fake> | undefined;
  const closeCase = async (key: string) => {
    const started = running.get(key);
    running.delete(key);
    await Promise.all([
      ...[...(started?.fakes.values() ?? [])].map((fake) => fake.close()),
      ...(started?.placed ?? []).map((vendor) => placed.get(vendor)?.end()),
    ]);
  };
  return {
    vendors: proxied,
    env: Object.assign({}, ...standing.map((fake) => fake.env), ...placedList.map((vendor) => vendor.env)),
    async begin(c: EvalCase) {
      // A copy for every fake: the runs of a case, and cases sharing a seed by YAML anchor, hold one
      // object, which no fake may change for the next.
      const seeds = structuredClone(c.vendors ?? {});
      const extra = Object.keys(seeds).filter((name) => !vendors.includes(name));
      if (extra.length)
        throw new Error(
          `${c.key} seeds ${extra.join(", ")}, which no fake here stands in for (${vendors.join(", ")}).`,
        );
      const reached = c.expect.agents?.alternatives.flat() ?? [];
      const fresh = vendors.filter((vendor) => vendor in seeds || reached.includes(vendor));
      const started = { fakes: new Map<string, Fake>(), placed: [] as string[] };
      running.set(c.key, started);
      latest = started.fakes;
      try {
        for (const vendor of fresh) {
          const place = placed.get(vendor);
          if (place) {
            started.placed.push(vendor);
            await place.begin(seeds[vendor]);
          } else started.fakes.set(vendor, await (FAKES[vendor] as Starter)(seeds[vendor]));
        }
      } catch (error) {
        await closeCase(c.key);
        throw new Error(`${c.key}: ${(error as Error).message}`, { cause: error });
      }
      return Object.fromEntries([...started.fakes].map(([vendor, fake]) => [vendor, fake.url]));
    },
    end: (c: EvalCase) => closeCase(c.key),
    current: (vendor) => placed.get(vendor)?.server() ?? latest?.get(vendor)?.server,
    warm: (vendor) => placed.get(vendor)?.warm?.(),
    close: async () => {
      await Promise.all([...running.keys()].map(closeCase));
      await Promise.all([...standing, ...placedList].map((f) => f.close()));
    },
  };
}
