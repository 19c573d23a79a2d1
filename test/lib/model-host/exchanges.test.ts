/**
 * The cloud credential exchanges' answers as each cloud documents them: credentials read from a
 * good answer, and a refusal turned into one sentence with the cloud's own reason.
 */
import { describe, expect, it } from "vitest";
import { assumeRoleWithWebIdentity } from "../../../lib/model-host/aws-web-identity.ts";
import { googleAccessToken, googleOidcAudience } from "../../../lib/model-host/google-federation.ts";

const PROVIDER = "projects/1/locations/global/workloadIdentityPools/gh/providers/acme";

function answering(status: number, body: string, seen: Request[] = []): typeof fetch {
  return (input, init) => {
    seen.push(new Request(input, init));
    return Promise.resolve(new Response(body, { status }));
  };
}

describe("AssumeRoleWithWebIdentity", () => {
  const request = {
    stsUrl: "https://sts.example",
    roleArn: "arn:aws:iam::123456789012:role/locus",
    sessionName: "locus acme/repo 42",
    webIdentityToken: "eyJ.a.b",
  };

  it("sends the token and reads the credentials from STS's XML", async () => {
    const seen: Request[] = [];
    const xml =
      "<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>ASIAX</AccessKeyId><SecretAccessKey>secret</SecretAccessKey><SessionToken>session</SessionToken></Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>";
    const credentials = await assumeRoleWithWebIdentity({ ...request, fetch: answering(200, xml, seen) });
    expect(credentials).toEqual({ accessKeyId: "ASIAX", secretAccessKey: "secret", sessionToken: "session" });
    const form = new URLSearchParams(await seen[0]?.text());
    expect(form.get("Action")).toBe("AssumeRoleWithWebIdentity");
    expect(form.get("WebIdentityToken")).toBe("eyJ.a.b");
    expect(form.get("RoleSessionName")).toBe("locus-acme-repo-42");
  });

  it("says what STS said when it refuses", async () => {
    const xml =
      "<ErrorResponse><Error><Code>AccessDenied</Code><Message>Not authorized to perform sts:AssumeRoleWithWebIdentity</Message></Error></ErrorResponse>";
    await expect(assumeRoleWithWebIdentity({ ...request, fetch: answering(403, xml) })).rejects.toThrow(
      "AWS STS refused to let this run assume arn:aws:iam::123456789012:role/locus: Not authorized to perform sts:AssumeRoleWithWebIdentity",
    );
  });
});

describe("Google workload identity federation", () => {
  const request = {
    stsUrl: "https://sts.example",
    iamUrl: "https://iam.example",
    workloadIdentityProvider: PROVIDER,
    subjectToken: "eyJ.a.b",
  };

  it("asks GitHub for a token with the provider's full name as its audience", () => {
    expect(googleOidcAudience(PROVIDER)).toBe(`https://iam.googleapis.com/${PROVIDER}`);
  });

  it("uses the federated token itself when no service account is named", async () => {
    const seen: Request[] = [];
    const token = await googleAccessToken({
      ...request,
      fetch: answering(200, JSON.stringify({ access_token: "ya29.fed" }), seen),
    });
    expect(token).toBe("ya29.fed");
    expect(JSON.parse((await seen[0]?.text()) ?? "{}")).toMatchObject({
      audience: `//iam.googleapis.com/${PROVIDER}`,
      subjectToken: "eyJ.a.b",
    });
  });

  it("says what Google said when STS or IAM refuses", async () => {
    await expect(
      googleAccessToken({
        ...request,
        fetch: answering(
          400,
          JSON.stringify({
            error: "invalid_grant",
            error_description: "The audience in ID Token does not match.",
          }),
        ),
      }),
    ).rejects.toThrow(
      "Google STS refused this run's OIDC token: invalid_grant: The audience in ID Token does not match.",
    );
    let call = 0;
    const stsThenIam: typeof fetch = () =>
      Promise.resolve(
        call++ === 0
          ? new Response(JSON.stringify({ access_token: "ya29.fed" }))
          : new Response(
              JSON.stringify({
                error: { code: 403, message: "Permission iam.serviceAccounts.getAccessToken denied" },
              }),
              { status: 403 },
            ),
      );
    await expect(
      googleAccessToken({ ...request, serviceAccount: "sa@p.iam.gserviceaccount.com", fetch: stsThenIam }),
    ).rejects.toThrow(
      "Google IAM refused to let this run act as sa@p.iam.gserviceaccount.com: Permission iam.serviceAccounts.getAccessToken denied",
    );
  });
});
