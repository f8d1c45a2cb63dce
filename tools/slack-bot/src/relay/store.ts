import { type Collection, type Db, MongoServerError } from "mongodb";

/** How long a handled message's claim is kept: longer than any platform retries a delivery. */
const CLAIM_TTL_SECONDS = 24 * 60 * 60;

/** A chat message some replica took on (its key is the platform's message identity). */
export interface Claim {
  _id: string;
  at: Date;
}

/** A conversation the relay holds with one user in one chat thread. */
export interface ThreadRecord {
  /** The contextId sent to the supervisor. */
  _id: string;
  workspace: string;
  channel: string;
  thread: string;
  user: string;
  /** A question the supervisor asked in words (not a confirmation): the next reply answers it. */
  pendingTaskId?: string;
  updatedAt: Date;
}

/** A change waiting for a yes or no, shown with buttons. */
export interface ConfirmationRecord {
  _id: string;
  workspace: string;
  channel: string;
  thread: string;
  /** The message holding the buttons. */
  messageId: string;
  /** The user who asked: the change runs as them; another may answer only if the agent's policy allows. */
  user: string;
  contextId: string;
  taskId: string;
  question: string;
  /** The hashes of the arguments the question shows: sent back with the decision, which holds only for those. */
  argsHashes?: string[];
  agent?: string;
  /** `deciding`: someone else pressed and the agent is deciding whether they may; `refused`: it said no. */
  state: "pending" | "deciding" | "approved" | "declined" | "refused";
  decidedBy?: string;
  decidedAt?: Date;
  createdAt: Date;
}

export interface RelayCollections {
  claims: Collection<Claim>;
  threads: Collection<ThreadRecord>;
  confirmations: Collection<ConfirmationRecord>;
}

/**
 * The relay's collections, with their indexes made (a claim expires after a day). `self` is the bot's
 * name in them (`<kind>_<bot>`, as the agents' are): each chat bot keeps its own.
 */
export async function relayCollections(db: Db, self = "slack-bot"): Promise<RelayCollections> {
  const collections: RelayCollections = {
    claims: db.collection<Claim>(`claims_${self}`),
    threads: db.collection<ThreadRecord>(`threads_${self}`),
    confirmations: db.collection<ConfirmationRecord>(`confirmations_${self}`),
  };
  await collections.claims.createIndex({ at: 1 }, { expireAfterSeconds: CLAIM_TTL_SECONDS });
  return collections;
}

/**
 * Takes on a message once across every replica and redelivery: the first insert of its key wins,
 * any later one (a retry, the same message's second event, another replica) is told no.
 */
export async function claim(claims: Collection<Claim>, key: string): Promise<boolean> {
  try {
    await claims.insertOne({ _id: key, at: new Date() });
    return true;
  } catch (error) {
    if (error instanceof MongoServerError && error.code === 11000) return false;
    throw error;
  }
}
