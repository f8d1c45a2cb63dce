import { availableParallelism } from "node:os";
import { defineTestConfig } from "@switchboard/vitest-config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Mostly waits for DocumentDB's TTL job (about once a minute), so it starts first, beside the rest. */
const waitsForTtl = (spec: TestSpecification) => spec.moduleId.endsWith("/ttl-expiry.int.test.ts");

class TtlFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter(waitsForTtl), ...sorted.filter((spec) => !waitsForTtl(spec))];
  }
}

// The test MongoDB for every suite, and DocumentDB (../shared/tools/documentdb, when present) for
// the conformance suite and real TTL expiry. Two files at once even on 2 cores, so the TTL wait
// overlaps the other files instead of following them.
export default defineTestConfig({
  mongo: true,
  test: {
    globalSetup: ["@switchboard-testing/test-mongo/documentdb-setup"],
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: TtlFirst },
  },
});
