import { defineTestConfig } from "@switchboard/vitest-config";

// Unit tests only: the harness against a real fleet is testing/eval-fakes/test/eval.int.test.ts.
export default defineTestConfig({});
