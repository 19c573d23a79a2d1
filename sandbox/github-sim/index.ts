export { startGitHubSimulator } from "./simulator.ts";
export type { GitHubSimulator, GitHubSimulatorOptions } from "./simulator.ts";
export type { Exchange, RequestLogEntry } from "./http-handler.ts";
export type { ActiveFault, FaultAction, FaultRule } from "./faults.ts";
export type { RunnerRequest, RunnerResult, WorkflowRunner } from "./runs.ts";
export type { RepoSeedOptions, RepoSeeder, SeedActionOptions, Seeder } from "./seed.ts";
export type { WebhookDelivery } from "./webhooks.ts";
export { signPayload } from "./webhooks.ts";
export { githubGraphqlSchema } from "./graphql-schema.ts";
export type * from "./model.ts";
export type { OidcIssuer } from "./oidc-issuer.ts";
export type {
  CiController,
  CiExecution,
  CiExecutor,
  CiJobSpec,
  CiOptions,
  CiRunSpec,
  ExternalSuiteSpec,
} from "./ci-runs.ts";
