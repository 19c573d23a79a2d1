/**
 * Stand-ins for the clouds that serve Claude, in front of the Messages API fake: AWS STS
 * (AssumeRoleWithWebIdentity) and Bedrock's streaming invoke, Google STS, IAM Credentials and
 * Vertex AI's streamRawPredict. Each federation step checks the caller's proof as the real one
 * does: the GitHub OIDC token against the issuer's published keys and the expected audience,
 * Bedrock's SigV4 credential and session token against what STS issued, Vertex's bearer token
 * against what IAM issued. The model calls are handed to the Messages fake (its script answers),
 * Bedrock's answer re-framed as AWS event-stream `chunk` messages
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html),
 * Vertex's passed through as server-sent events.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { createRemoteJWKSet, jwtVerify } from "jose";

export interface CloudHostsOptions {
  /** The Messages API fake's base URL. */
  readonly messagesUrl: string;
  /** GitHub's OIDC issuer whose tokens the federations trust. */
  readonly issuer: string;
  /** The workload identity provider Google STS answers for. */
  readonly workloadIdentityProvider: string;
}

export interface CloudHosts {
  readonly url: string;
  /** Credentials each step issued, and which the model endpoints saw. */
  readonly issued: {
    aws: { accessKeyId: string; secretAccessKey: string; sessionToken: string }[];
    google: string[];
  };
  readonly seen: { bedrock: string[]; vertex: string[] };
  close(): Promise<void>;
}

const utf8 = {
  toUtf8: (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8"),
  fromUtf8: (text: string) => new Uint8Array(Buffer.from(text, "utf8")),
};

async function body(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

export async function startCloudHosts(options: CloudHostsOptions): Promise<CloudHosts> {
  const keys = createRemoteJWKSet(new URL(`${options.issuer}/.well-known/jwks`));
  const issued: CloudHosts["issued"] = { aws: [], google: [] };
  const seen: CloudHosts["seen"] = { bedrock: [], vertex: [] };
  const federated = new Set<string>();
  const codec = new EventStreamCodec(utf8.toUtf8, utf8.fromUtf8);

  async function trusted(token: string, audience: string): Promise<boolean> {
    try {
      await jwtVerify(token, keys, { issuer: options.issuer, audience });
      return true;
    } catch {
      return false;
    }
  }

  /** Asks the Messages fake for `request` with `model`, streaming. */
  function messages(request: Record<string, unknown>, model: string): Promise<Response> {
    const { anthropic_version: _version, ...rest } = request;
    return fetch(`${options.messagesUrl}/v1/messages`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": "cloud-host",
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify({ ...rest, model, stream: true }),
    });
  }

  async function awsSts(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await body(req));
    if (
      form.get("Action") !== "AssumeRoleWithWebIdentity" ||
      !(await trusted(form.get("WebIdentityToken") ?? "", "sts.amazonaws.com"))
    ) {
      res.writeHead(400, { "content-type": "text/xml" });
      res.end(
        "<ErrorResponse><Error><Code>InvalidIdentityToken</Code><Message>Couldn't verify the web identity token</Message></Error></ErrorResponse>",
      );
      return;
    }
    const credentials = {
      accessKeyId: `ASIA${randomBytes(8).toString("hex").toUpperCase()}`,
      secretAccessKey: randomBytes(20).toString("base64url"),
      sessionToken: `IQo${randomBytes(24).toString("base64url")}`,
    };
    issued.aws.push(credentials);
    res.writeHead(200, { "content-type": "text/xml" });
    res.end(
      `<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>${credentials.accessKeyId}</AccessKeyId><SecretAccessKey>${credentials.secretAccessKey}</SecretAccessKey><SessionToken>${credentials.sessionToken}</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration></Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>`,
    );
  }

  async function bedrock(req: IncomingMessage, res: ServerResponse, model: string): Promise<void> {
    const authorization = req.headers.authorization ?? "";
    const credential = /Credential=([^/]+)\//.exec(authorization)?.[1];
    const known = issued.aws.find(
      (c) => c.accessKeyId === credential && c.sessionToken === req.headers["x-amz-security-token"],
    );
    const request = JSON.parse(await body(req)) as Record<string, unknown>;
    if (!authorization.startsWith("AWS4-HMAC-SHA256 ") || known === undefined) {
      res.writeHead(403, {
        "content-type": "application/json",
        "x-amzn-errortype": "UnrecognizedClientException",
      });
      res.end(JSON.stringify({ message: "The security token included in the request is invalid." }));
      return;
    }
    seen.bedrock.push(known.accessKeyId);
    const answer = await messages(request, model);
    res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
    for (const frame of (await answer.text()).split("\n\n")) {
      const data = frame.split("\n").find((line) => line.startsWith("data: "));
      if (data === undefined) continue;
      const chunk = JSON.stringify({ bytes: Buffer.from(data.slice(6)).toString("base64") });
      res.write(
        codec.encode({
          headers: {
            ":event-type": { type: "string", value: "chunk" },
            ":content-type": { type: "string", value: "application/json" },
            ":message-type": { type: "string", value: "event" },
          },
          body: utf8.fromUtf8(chunk),
        }),
      );
    }
    res.end();
  }

  async function googleSts(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = JSON.parse(await body(req)) as Record<string, string>;
    const audience = `https://iam.googleapis.com/${options.workloadIdentityProvider}`;
    const good =
      request["audience"] === `//iam.googleapis.com/${options.workloadIdentityProvider}` &&
      (await trusted(request["subjectToken"] ?? "", audience));
    if (!good) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          error: "invalid_grant",
          error_description: "The audience in ID Token does not match.",
        }),
      );
      return;
    }
    const token = `ya29.federated-${randomBytes(16).toString("hex")}`;
    federated.add(token);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        access_token: token,
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        token_type: "Bearer",
        expires_in: 3600,
      }),
    );
  }

  function iam(req: IncomingMessage, res: ServerResponse): void {
    const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    req.resume();
    if (!federated.has(token)) {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { code: 401, message: "Request had invalid authentication credentials." } }),
      );
      return;
    }
    const accessToken = `ya29.sa-${randomBytes(16).toString("hex")}`;
    issued.google.push(accessToken);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ accessToken, expireTime: "2099-01-01T00:00:00Z" }));
  }

  async function vertex(req: IncomingMessage, res: ServerResponse, model: string): Promise<void> {
    const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    const request = JSON.parse(await body(req)) as Record<string, unknown>;
    if (!issued.google.includes(token) && !federated.has(token)) {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { code: 401, message: "Request had invalid authentication credentials." } }),
      );
      return;
    }
    seen.vertex.push(token);
    const answer = await messages(request, model);
    res.writeHead(answer.status, {
      "content-type": answer.headers.get("content-type") ?? "text/event-stream",
    });
    res.end(await answer.text());
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://cloud").pathname;
    const bedrockModel = /^\/bedrock\/model\/([^/]+)\/invoke-with-response-stream$/.exec(path)?.[1];
    const vertexModel =
      /^\/vertex\/projects\/[^/]+\/locations\/[^/]+\/publishers\/anthropic\/models\/([^/:]+):streamRawPredict$/.exec(
        path,
      )?.[1];
    if (path === "/aws-sts/") return awsSts(req, res);
    if (bedrockModel !== undefined) return bedrock(req, res, decodeURIComponent(bedrockModel));
    if (path === "/google-sts/v1/token") return googleSts(req, res);
    if (/^\/iam\/v1\/projects\/-\/serviceAccounts\/[^/]+:generateAccessToken$/.test(path))
      return iam(req, res);
    if (vertexModel !== undefined) return vertex(req, res, decodeURIComponent(vertexModel));
    req.resume();
    res.writeHead(404).end();
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    issued,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
