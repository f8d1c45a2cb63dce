export {
  describeOnDocumentDb,
  TEST_AUDIT_HMAC_KEY,
  testMongoEnv,
  testMongoUri,
  uniqueDbName,
} from "./inject.js";
export { startTestMongo, type TestMongo } from "./server.js";
export { storedText } from "./stored.js";
