/**
 * AWS credentials for one run from its GitHub OIDC token: STS `AssumeRoleWithWebIdentity`, a
 * request AWS takes unsigned since the token is the proof
 * (https://docs.aws.amazon.com/STS/latest/APIReference/API_AssumeRoleWithWebIdentity.html).
 * The token's audience is `sts.amazonaws.com`, as AWS's own GitHub action asks for
 * (https://docs.github.com/en/actions/how-tos/secure-your-work/security-harden-deployments/oidc-in-aws).
 */
import { DomUtils, parseDocument } from "htmlparser2";

export const AWS_OIDC_AUDIENCE = "sts.amazonaws.com";

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken: string;
}

export interface AssumeRoleRequest {
  readonly stsUrl: string;
  readonly roleArn: string;
  /** Names the session in the role's CloudTrail records: the repository's run. */
  readonly sessionName: string;
  readonly webIdentityToken: string;
  readonly fetch?: typeof fetch;
}

/** The answer's first element named `name` (namespaces and case as AWS writes them), or "". */
function element(xml: ReturnType<typeof parseDocument>, name: string): string {
  const found = DomUtils.findOne((node) => node.name === name, xml.children, true);
  return found ? DomUtils.textContent(found).trim() : "";
}

export async function assumeRoleWithWebIdentity(request: AssumeRoleRequest): Promise<AwsCredentials> {
  const body = new URLSearchParams({
    Action: "AssumeRoleWithWebIdentity",
    Version: "2011-06-15",
    RoleArn: request.roleArn,
    RoleSessionName: request.sessionName.replace(/[^\w+=,.@-]/g, "-").slice(0, 64),
    WebIdentityToken: request.webIdentityToken,
    DurationSeconds: "3600",
  });
  const response = await (request.fetch ?? fetch)(`${request.stsUrl}/`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/xml" },
    body,
  });
  const xml = parseDocument(await response.text(), { xmlMode: true });
  if (!response.ok) {
    const why = element(xml, "Message") || element(xml, "Code") || `HTTP ${response.status}`;
    throw new Error(`AWS STS refused to let this run assume ${request.roleArn}: ${why}`);
  }
  const credentials = {
    accessKeyId: element(xml, "AccessKeyId"),
    secretAccessKey: element(xml, "SecretAccessKey"),
    sessionToken: element(xml, "SessionToken"),
  };
  if (!credentials.accessKeyId || !credentials.secretAccessKey || !credentials.sessionToken) {
    throw new Error("AWS STS answered AssumeRoleWithWebIdentity without credentials.");
  }
  return credentials;
}
