export type { Application, ArgoOperation, ArgoSeed, ArgoState } from "./argocd/index.js";
export { type FakeArgoCd, startFakeArgoCd } from "./argocd/index.js";
export type { BackstageSeed, BackstageState, Entity } from "./backstage/index.js";
export { type FakeBackstage, startFakeBackstage } from "./backstage/index.js";
export type {
  ConfluenceSeed,
  ConfluenceState,
  Grantees,
  Page,
  PageChange,
  Space,
} from "./confluence/index.js";
export { type FakeConfluence, startFakeConfluence } from "./confluence/index.js";
export type {
  GitLabChange,
  GitLabSeed,
  GitLabState,
  Issue,
  MergeRequest,
  Pipeline,
  Project,
} from "./gitlab/index.js";
export { type FakeGitLab, startFakeGitLab } from "./gitlab/index.js";
export {
  type FakeKomodor,
  type KomodorChange,
  type KomodorSeed,
  type KomodorState,
  startFakeKomodor,
} from "./komodor/index.js";
export type { OpenMeteoSeed, Place, PlaceWeather, SeededPlace } from "./open-meteo/index.js";
export { type FakeOpenMeteo, startFakeOpenMeteo } from "./open-meteo/index.js";
export { type OpenApiFake, type OpenApiFakeOptions, startOpenApiFake } from "./openapi-fake.js";
export type { ReceivedCredential, ReceivedRequest } from "./openapi-security.js";
export type {
  Incident,
  IncidentChange,
  OnCall,
  PagerDutySeed,
  PagerDutyState,
  Service,
} from "./pagerduty/index.js";
export { type FakePagerDuty, startFakePagerDuty } from "./pagerduty/index.js";
export {
  type FakePetstore,
  loadPetstoreSpec,
  type Pet,
  type PetstoreChange,
  type PetstoreSeed,
  startFakePetstore,
} from "./petstore/index.js";
export { nextAfter, seedParts } from "./seed.js";
export type { Channel, Message, PostedMessage, SlackSeed, SlackState, User } from "./slack/index.js";
export { type FakeSlack, startFakeSlack } from "./slack/index.js";
export {
  type FakeSplunk,
  type SplunkChange,
  type SplunkSeed,
  type SplunkState,
  startFakeSplunk,
} from "./splunk/index.js";
export {
  type Part,
  type RequestRecord,
  startVendorServer,
  type VendorApi,
  VendorHttpError,
  type VendorServer,
} from "./vendor-server.js";
export { ARGO_CD_SPEC, BACKSTAGE_CATALOG_SPEC, loadVendorSpec, type SpecSource } from "./vendor-spec.js";
export {
  type FakeVictorOps,
  startFakeVictorOps,
  type VictorOpsChange,
  type VictorOpsIncident,
  type VictorOpsSeed,
  type VictorOpsState,
} from "./victorops/index.js";
export {
  type FakeWebex,
  startFakeWebex,
  type WebexChange,
  type WebexMembership,
  type WebexMessage,
  type WebexRoom,
  type WebexSeed,
  type WebexState,
} from "./webex/index.js";
