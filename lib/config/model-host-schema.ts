/**
 * Where the built-in runner's model is served: Anthropic's API with a key, or Amazon Bedrock or
 * Google Vertex AI with credentials the run gets from GitHub's OIDC token, so no model key is
 * stored anywhere (docs/providers.md "Models through your cloud account").
 */
import { z } from "zod";
import { nonEmpty } from "./schema-primitives.ts";

export const MODEL_HOSTS = ["anthropic", "bedrock", "vertex"] as const;
export type ModelHost = (typeof MODEL_HOSTS)[number];

const httpsUrl = z
  .string()
  .trim()
  .regex(/^https?:\/\/\S+$/, "expected an http(s) URL")
  .transform((url) => url.replace(/\/+$/, ""));

export const bedrockSchema = z
  .looseObject({
    region: nonEmpty.describe("AWS region of Bedrock, e.g. `us-east-1`."),
    roleArn: z
      .string()
      .trim()
      .regex(/^arn:aws[\w-]*:iam::\d{12}:role\/\S+$/, "expected an IAM role ARN")
      .describe(
        "IAM role the run assumes with its GitHub OIDC token (AssumeRoleWithWebIdentity); its trust policy names GitHub's OIDC provider and this repository.",
      ),
    endpoint: httpsUrl
      .optional()
      .describe("Bedrock runtime URL; default `https://bedrock-runtime.<region>.amazonaws.com`."),
    stsEndpoint: httpsUrl.optional().describe("AWS STS URL; default `https://sts.<region>.amazonaws.com`."),
  })
  .describe("Amazon Bedrock (agent.modelHost: bedrock).");

export const vertexSchema = z
  .looseObject({
    region: nonEmpty.describe("Vertex AI region, e.g. `us-east5`, or `global`."),
    projectId: nonEmpty.describe("Google Cloud project that serves the model."),
    workloadIdentityProvider: z
      .string()
      .trim()
      .regex(
        /^projects\/\d+\/locations\/global\/workloadIdentityPools\/[\w-]+\/providers\/[\w-]+$/,
        "expected projects/<number>/locations/global/workloadIdentityPools/<pool>/providers/<provider>",
      )
      .describe("Workload identity provider that trusts GitHub's OIDC tokens for this repository."),
    serviceAccount: z
      .email()
      .optional()
      .describe(
        "Service account to impersonate with the federated token; absent, the federated identity calls Vertex itself.",
      ),
    endpoint: httpsUrl.optional().describe("Vertex AI URL; default Google's for the region."),
    stsEndpoint: httpsUrl.optional().describe("Google STS URL; default `https://sts.googleapis.com`."),
    iamEndpoint: httpsUrl
      .optional()
      .describe("IAM Credentials URL; default `https://iamcredentials.googleapis.com`."),
  })
  .describe("Google Vertex AI (agent.modelHost: vertex).");

export type BedrockSettings = z.output<typeof bedrockSchema>;
export type VertexSettings = z.output<typeof vertexSchema>;
