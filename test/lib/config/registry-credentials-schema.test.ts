import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../lib/config/index.ts";
import { credentialRules } from "../../../lib/config/registry-credentials-schema.ts";
import { registryCredentialsFor } from "../../../lib/config/run-registry-credentials.ts";
import { credentialFor, hostCredentials, missingSecrets } from "../../../lib/sandbox/registry-credentials.ts";

function credentialsOf(yaml: string) {
  const result = loadConfig(`version: 3\nsandbox:\n  network:\n    credentials:\n${yaml}`);
  if (!result.ok) return { errors: result.errors.map((error) => error.message) };
  return { rules: credentialRules(result.config.sandbox.network.credentials) };
}

describe("sandbox.network.credentials", () => {
  it("takes a secret's name (bearer) or a secret with its scheme", () => {
    expect(
      credentialsOf(
        "      npm.pkg.github.com: NPM_TOKEN\n      maven.example.com:8443: { secret: MAVEN_AUTH, scheme: basic }\n",
      ),
    ).toEqual({
      rules: [
        { host: "npm.pkg.github.com", secret: "NPM_TOKEN", scheme: "bearer" },
        { host: "maven.example.com:8443", secret: "MAVEN_AUTH", scheme: "basic" },
      ],
    });
    expect(credentialRules(undefined)).toEqual([]);
  });

  it("refuses a wildcard host, a name that is not a secret's, and an unknown scheme", () => {
    expect(credentialsOf("      '*.example.com': NPM_TOKEN\n").errors?.[0]).toMatch(/without a wildcard/);
    expect(credentialsOf("      npm.pkg.github.com: npm-token\n").errors?.[0]).toMatch(/name of a secret/);
    expect(
      credentialsOf("      npm.pkg.github.com: { secret: NPM_TOKEN, scheme: digest }\n").errors?.join(" "),
    ).toMatch(/bearer|basic/);
  });
});

describe("credentials for the proxy (pure)", () => {
  const rules = [
    { host: "npm.pkg.github.com", secret: "NPM_TOKEN", scheme: "bearer" as const },
    { host: "maven.example.com:8443", secret: "MAVEN_AUTH", scheme: "basic" as const },
    { host: "127.0.0.1:4873", secret: "NPM_TOKEN", scheme: "bearer" as const },
  ];

  it("names the secrets the workflow did not pass, once each", () => {
    expect(missingSecrets(rules, { NPM_TOKEN: "t" })).toEqual(["MAVEN_AUTH"]);
    expect(missingSecrets(rules, { NPM_TOKEN: "t", MAVEN_AUTH: "" })).toEqual(["MAVEN_AUTH"]);
    expect(missingSecrets(rules, {})).toEqual(["NPM_TOKEN", "MAVEN_AUTH"]);
  });

  it("sends a credentialed host's plain-HTTP requests upstream over HTTPS with the header", () => {
    const credentials = hostCredentials(rules, { NPM_TOKEN: "tok", MAVEN_AUTH: "me:pw" });
    expect(credentialFor({ host: "NPM.pkg.github.com", port: 80 }, credentials)).toEqual({
      origin: "https://npm.pkg.github.com",
      authorization: "Bearer tok",
    });
    expect(credentialFor({ host: "maven.example.com", port: 8443 }, credentials)).toEqual({
      origin: "https://maven.example.com:8443",
      authorization: `Basic ${Buffer.from("me:pw").toString("base64")}`,
    });
    expect(credentialFor({ host: "127.0.0.1", port: 4873 }, credentials)?.origin).toBe(
      "http://127.0.0.1:4873",
    );
    // Another port or host, or a subdomain, gets nothing.
    expect(credentialFor({ host: "npm.pkg.github.com", port: 8080 }, credentials)).toBeUndefined();
    expect(credentialFor({ host: "maven.example.com", port: 80 }, credentials)).toBeUndefined();
    expect(credentialFor({ host: "x.npm.pkg.github.com", port: 80 }, credentials)).toBeUndefined();
  });
});

describe("a run's registry credentials", () => {
  const config = (credentials: Record<string, unknown>) => {
    const result = loadConfig(JSON.stringify({ version: 3, sandbox: { network: { credentials } } }));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.config;
  };

  it("stops on a secret the workflow did not pass, naming it and no value", () => {
    const run = () =>
      registryCredentialsFor(config({ "npm.pkg.github.com": "NPM_TOKEN", "a.example": "OTHER" }), {
        OTHER: "other-secret-value",
      });
    expect(run).toThrow(
      "sandbox.network.credentials names `NPM_TOKEN`, which the workflow did not pass: add it to the registry-credentials input",
    );
    expect(run).not.toThrow(/other-secret-value/);
  });

  it("masks each secret it uses and the header made from it, and nothing it does not use", () => {
    const { credentials, secrets } = registryCredentialsFor(
      config({ "maven.example.com": { secret: "MAVEN", scheme: "basic" } }),
      { MAVEN: "me:pw-123456", UNUSED: "unused-value" },
    );
    const encoded = Buffer.from("me:pw-123456").toString("base64");
    expect(credentials).toEqual([{ host: "maven.example.com", authorization: `Basic ${encoded}` }]);
    expect(secrets).toEqual(["me:pw-123456", `Basic ${encoded}`, encoded]);
    expect(registryCredentialsFor(config({}), { UNUSED: "x" })).toEqual({ credentials: [], secrets: [] });
  });
});
