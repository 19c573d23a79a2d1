/**
 * The built-in runner's model client for `agent.modelHost` bedrock or vertex: the run's GitHub
 * OIDC token (its audience the cloud's) traded for short-lived cloud credentials before the
 * agent's first turn. The credentials stay in this process: the agent's sandbox, its tools and
 * every log line are given none of them (the caller masks `secrets`).
 */
import { AnthropicBedrock } from "@anthropic-ai/bedrock-sdk";
import { AnthropicVertex } from "@anthropic-ai/vertex-sdk";
import { OAuth2Client } from "google-auth-library";
import type { ModelClient } from "../agent/model-client.ts";
import type { BedrockSettings, ModelHost, VertexSettings } from "../config/model-host-schema.ts";
import { assumeRoleWithWebIdentity, AWS_OIDC_AUDIENCE } from "./aws-web-identity.ts";
import { googleAccessToken, googleOidcAudience } from "./google-federation.ts";

export interface ModelHostSettings {
  readonly modelHost: ModelHost;
  readonly bedrock?: BedrockSettings | undefined;
  readonly vertex?: VertexSettings | undefined;
}

export interface ModelHostConnection {
  readonly client: ModelClient;
  /** Every credential the exchange produced, for the run's mask. */
  readonly secrets: readonly string[];
}

export interface ConnectOptions {
  /** The run's OIDC token for an audience (lib/token-exchange/id-token.ts). */
  readonly idToken: (audience: string) => Promise<string>;
  /** Names the cloud session: the repository and run. */
  readonly sessionName: string;
  readonly fetch?: typeof fetch;
}

async function connectBedrock(
  settings: BedrockSettings,
  options: ConnectOptions,
): Promise<ModelHostConnection> {
  const credentials = await assumeRoleWithWebIdentity({
    stsUrl: settings.stsEndpoint ?? `https://sts.${settings.region}.amazonaws.com`,
    roleArn: settings.roleArn,
    sessionName: options.sessionName,
    webIdentityToken: await options.idToken(AWS_OIDC_AUDIENCE),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const client = new AnthropicBedrock({
    awsRegion: settings.region,
    awsAccessKey: credentials.accessKeyId,
    awsSecretKey: credentials.secretAccessKey,
    awsSessionToken: credentials.sessionToken,
    maxRetries: 0,
    ...(settings.endpoint ? { baseURL: settings.endpoint } : {}),
  });
  return { client, secrets: [credentials.secretAccessKey, credentials.sessionToken] };
}

async function connectVertex(
  settings: VertexSettings,
  options: ConnectOptions,
): Promise<ModelHostConnection> {
  const token = await googleAccessToken({
    stsUrl: settings.stsEndpoint ?? "https://sts.googleapis.com",
    iamUrl: settings.iamEndpoint ?? "https://iamcredentials.googleapis.com",
    workloadIdentityProvider: settings.workloadIdentityProvider,
    ...(settings.serviceAccount ? { serviceAccount: settings.serviceAccount } : {}),
    subjectToken: await options.idToken(googleOidcAudience(settings.workloadIdentityProvider)),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // A client holding this one token: no Application Default Credentials are looked for.
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: token });
  const client = new AnthropicVertex({
    region: settings.region,
    projectId: settings.projectId,
    authClient,
    maxRetries: 0,
    ...(settings.endpoint ? { baseURL: settings.endpoint } : {}),
  });
  return { client, secrets: [token] };
}

/** The cloud's model client, or undefined for Anthropic's API (the built-in runner's own client). */
export async function connectModelHost(
  agent: ModelHostSettings,
  options: ConnectOptions,
): Promise<ModelHostConnection | undefined> {
  if (agent.modelHost === "bedrock" && agent.bedrock) return connectBedrock(agent.bedrock, options);
  if (agent.modelHost === "vertex" && agent.vertex) return connectVertex(agent.vertex, options);
  return undefined;
}
