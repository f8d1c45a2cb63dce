import { readFileSync } from "node:fs";

/** One page of the generated corpus, as an ingester hands it to the store. */
export interface CorpusPage {
  id: string;
  uri: string;
  title: string;
  text: string;
  readers: "everyone" | { groups: string[] };
}

/** A question whose answer is one page (`answer`, a page id), asked the way a person might. */
export interface KnownQuestion {
  question: string;
  answer: string;
  /** `literal`: in the page's own words; `paraphrase`: in other words (the case keyword search misses). */
  wording: "literal" | "paraphrase";
}

/** The question set and its answer pages, kept in the repository (questions.json). */
export interface QuestionSet {
  /** The page each question's answer is in: a topic of one service the rest of the corpus leaves out. */
  answers: Array<{ service: string; topic: string; title: string; text: string }>;
  questions: Array<{ service: string; topic: string; literal: string; paraphrase: string }>;
}

export function readQuestionSet(): QuestionSet {
  return JSON.parse(readFileSync(new URL("questions.json", import.meta.url), "utf8")) as QuestionSet;
}

const PREFIXES = [
  "payments",
  "ledger",
  "checkout",
  "catalog",
  "search",
  "identity",
  "billing",
  "inventory",
  "shipping",
  "notifications",
  "analytics",
  "reporting",
  "gateway",
  "profile",
  "orders",
  "pricing",
  "recommendations",
  "media",
  "messaging",
  "fraud",
];
const SUFFIXES = ["api", "worker", "scheduler", "ingest", "cache", "db", "stream", "proxy", "ui", "exporter"];
/** 200 services, as a platform team's catalog names them. */
export const SERVICES = PREFIXES.flatMap((prefix) => SUFFIXES.map((suffix) => `${prefix}-${suffix}`));

const ENVIRONMENTS = ["prod-eu", "prod-us", "staging", "dev", "prod-ap"];
const CLUSTERS = ["eks-blue", "eks-green", "gke-core", "aks-edge"];
const TEAMS = ["falcon", "otter", "heron", "lynx", "badger", "marten", "kestrel", "puffin"];

/** The topics a page is about; the question set's answer pages use the same ones. */
export const TOPICS: Record<string, (v: Values) => string> = {
  restart: (v) =>
    `To restart ${v.service} in ${v.env}, run kubectl rollout restart deployment/${v.service} -n ${v.namespace} on ${v.cluster} and watch the rollout until every pod is ready. Restarting clears the connection pool; expect a short rise in latency on the ${v.service} dashboard.`,
  rollback: (v) =>
    `A bad release of ${v.service} is rolled back with argocd app rollback ${v.service}-${v.env} to the previous revision. Check the sync status in Argo CD, then confirm the error rate fell on the ${v.team} team's board.`,
  scale: (v) =>
    `${v.service} scales horizontally: the HPA keeps CPU near ${v.percent} percent between ${v.small} and ${v.large} replicas in ${v.env}. Raise maxReplicas in the Helm values when a launch is planned.`,
  credentials: (v) =>
    `The database credentials of ${v.service} rotate every ${v.days} days through Vault at secret/${v.namespace}/${v.service}. A rotation restarts nothing: the sidecar reloads the new password.`,
  oncall: (v) =>
    `The ${v.team} team is on call for ${v.service}. Pages go to the ${v.team}-primary rotation in PagerDuty; acknowledge within ${v.small} minutes and escalate to the ${v.team}-secondary rotation after ${v.large} minutes.`,
  alerts: (v) =>
    `${v.service} alerts when its p99 latency passes ${v.large}0 milliseconds for ${v.small} minutes or its error ratio passes ${v.percent} per mille. The alert rules live in the ${v.namespace} PrometheusRule.`,
  backup: (v) =>
    `Backups of ${v.service} are taken every ${v.small} hours to the ${v.env} snapshot bucket and kept for ${v.days} days. Restore one with the restore job in the ${v.namespace} namespace.`,
  dependencies: (v) =>
    `${v.service} depends on the ${v.other} service and on the shared Kafka cluster in ${v.env}. When ${v.other} is down, ${v.service} queues its requests for up to ${v.small} minutes.`,
  logging: (v) =>
    `${v.service} writes structured JSON logs to Loki; query them with the label app=${v.service} in the ${v.env} Grafana. Debug logging is switched on with the LOG_LEVEL variable in its Helm values.`,
  certificates: (v) =>
    `The TLS certificate of ${v.service} is issued by cert-manager from the ${v.cluster} issuer and renewed ${v.small} days before it expires. A failed renewal raises a CertificateNotReady event in ${v.namespace}.`,
};

/** The values a page's sentences are filled with. */
export interface Values {
  service: string;
  other: string;
  env: string;
  cluster: string;
  namespace: string;
  team: string;
  percent: number;
  small: number;
  large: number;
  days: number;
}

/** Sentences any page may carry besides its topic, as real pages do. */
const FILLER = [
  "This page is owned by the platform team and reviewed every quarter.",
  "Ask in the platform channel when something here is out of date.",
  "Changes to production go through a pull request and a second reviewer.",
  "Link the incident ticket in the change description.",
  "The service runs in Kubernetes with three availability zones.",
  "Dashboards are in Grafana under the service's folder.",
  "Deployments are made by Argo CD from the main branch.",
  "Secrets are never written into the repository.",
  "Runbooks follow the template in the engineering handbook.",
  "The staging environment mirrors production at a smaller size.",
  "Use the change calendar before any maintenance in business hours.",
  "Capacity is reviewed before every seasonal peak.",
];

/** A small seeded generator (mulberry32): the same seed makes the same corpus on every machine. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function valuesFor(service: string, next: () => number): Values {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  return {
    service,
    other: pick(SERVICES.filter((name) => name !== service)),
    env: pick(ENVIRONMENTS),
    cluster: pick(CLUSTERS),
    namespace: service.split("-")[0] ?? service,
    team: pick(TEAMS),
    percent: 50 + Math.floor(next() * 40),
    small: 2 + Math.floor(next() * 10),
    large: 12 + Math.floor(next() * 30),
    days: 7 + Math.floor(next() * 80),
  };
}

/** Who may read a generated page: most pages everyone, some one team (a filter the search must apply). */
function readersFor(index: number): CorpusPage["readers"] {
  if (index % 10 === 7) return { groups: ["finance"] };
  if (index % 5 === 3) return { groups: ["sre"] };
  return "everyone";
}

/**
 * The corpus: the question set's answer pages first, then `size` minus those generated pages, one
 * chunk each (under the store's 1,200 characters), every service and topic but the answer pages'
 * (service, topic) pairs, so each question has exactly one page that answers it among many that
 * share its service or its topic. Deterministic for a seed.
 */
export function* corpusPages(size: number, set: QuestionSet, seed = 49): Generator<CorpusPage> {
  const next = random(seed);
  const answered = new Set(set.answers.map((answer) => `${answer.service}/${answer.topic}`));
  for (const answer of set.answers) {
    yield {
      id: answerId(answer.service, answer.topic),
      uri: `https://docs.example.com/${answer.service}/${answer.topic}`,
      title: answer.title,
      text: answer.text,
      readers: { groups: ["sre"] },
    };
  }
  const topics = Object.keys(TOPICS);
  for (let index = 0, made = set.answers.length; made < size; index++) {
    const service = SERVICES[index % SERVICES.length] as string;
    const topic = topics[Math.floor(index / SERVICES.length) % topics.length] as string;
    if (answered.has(`${service}/${topic}`)) continue;
    const values = valuesFor(service, next);
    const filler = [0, 1, 2].map(() => FILLER[Math.floor(next() * FILLER.length)]).join(" ");
    const revision = Math.floor(index / (SERVICES.length * topics.length)) + 1;
    yield {
      id: `page-${index}`,
      uri: `https://docs.example.com/${service}/${topic}/${revision}`,
      title: `${service} ${topic} (${values.env}, revision ${revision})`,
      text: `# ${service}: ${topic}\n\n${TOPICS[topic]?.(values)}\n\n${filler}`,
      readers: readersFor(index),
    };
    made++;
  }
}

export function answerId(service: string, topic: string): string {
  return `answer-${service}-${topic}`;
}

/** Every question of the set, twice: in the answer page's words and in other words. */
export function knownQuestions(set: QuestionSet): KnownQuestion[] {
  return set.questions.flatMap((question) => [
    {
      question: question.literal,
      answer: answerId(question.service, question.topic),
      wording: "literal" as const,
    },
    {
      question: question.paraphrase,
      answer: answerId(question.service, question.topic),
      wording: "paraphrase" as const,
    },
  ]);
}
