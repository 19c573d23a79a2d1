import { describe, expect, it } from "vitest";
import { credentialValues, secretsInDiff } from "../../../lib/secrets/secrets-in-diff.ts";

const SECRET = "run-secret-Xy7Qp2Lm9Vb4";

/** A patch adding `lines` to `path`, as `git diff --cached --unified=0` prints it. */
function patch(path: string, lines: readonly string[], header = `b/${path}`): string {
  return [
    `diff --git a/${path} b/${path}`,
    "new file mode 100644",
    "index 0000000..1111111",
    "--- /dev/null",
    `+++ ${header}`,
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((line) => `+${line}`),
    "",
  ].join("\n");
}

function base64After(prefix: string, value: string): string {
  return Buffer.from(prefix + value).toString("base64");
}

describe("secretsInDiff", () => {
  it("finds the run's secret as it is, URL-encoded, in hex and in base64 at every alignment", () => {
    const encodings = [
      SECRET,
      Buffer.from(SECRET).toString("hex"),
      Buffer.from(SECRET).toString("hex").toUpperCase(),
      base64After("", SECRET),
      base64After("k", SECRET),
      base64After("ke", SECRET),
      base64After("key=", SECRET).replace(/\+/g, "-").replace(/\//g, "_"),
    ];
    for (const encoded of encodings) {
      const hits = secretsInDiff(patch("leak.txt", [`value: ${encoded}`]), [SECRET]);
      expect(hits, encoded).toEqual([{ path: "leak.txt", what: "a secret of this run" }]);
    }
  });

  it("finds a secret with URL-special characters in its URL-encoded form", () => {
    const secret = "p@ss:w0rd/with+chars";
    const hits = secretsInDiff(patch("url.txt", [`https://x:${encodeURIComponent(secret)}@example.com`]), [
      secret,
    ]);
    expect(hits).toEqual([{ path: "url.txt", what: "a secret of this run" }]);
  });

  it("finds common token formats whoever they belong to", () => {
    const tokens: [string, string][] = [
      [`ghp_${"a".repeat(36)}`, "a GitHub token"],
      [`ghs_${"B1".repeat(18)}`, "a GitHub token"],
      [`github_pat_${"x".repeat(22)}_${"y".repeat(59)}`, "a GitHub token"],
      ["sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345", "an Anthropic API key"],
      ["AKIAIOSFODNN7EXAMPLE", "an AWS access key"],
      ["-----BEGIN OPENSSH PRIVATE KEY-----", "a private key"],
      ["-----BEGIN PRIVATE KEY-----", "a private key"],
    ];
    for (const [token, what] of tokens) {
      expect(secretsInDiff(patch("config.env", [`TOKEN=${token}`]), []), token).toEqual([
        { path: "config.env", what },
      ]);
    }
  });

  it("looks only at added lines, and names each file once per kind", () => {
    const removed = [
      "diff --git a/old.txt b/old.txt",
      "--- a/old.txt",
      "+++ b/old.txt",
      "@@ -1 +1 @@",
      `-${SECRET}`,
      "+clean",
      "",
    ].join("\n");
    const twice = patch("twice.txt", [SECRET, `again ${SECRET}`]);
    expect(secretsInDiff(removed + twice, [SECRET])).toEqual([
      { path: "twice.txt", what: "a secret of this run" },
    ]);
  });

  it("reads a quoted file name as git prints it", () => {
    const diff = patch('we"ird é.txt', [SECRET], '"b/we\\"ird \\303\\251.txt"');
    expect(secretsInDiff(diff, [SECRET])).toEqual([{ path: 'we"ird é.txt', what: "a secret of this run" }]);
  });

  it("leaves ordinary text and short values alone", () => {
    const diff = patch("src/app.ts", [
      "const ghp = 'ghp_short';",
      "export const enabled = true;",
      "AKIA lowercase",
    ]);
    expect(secretsInDiff(diff, ["true", SECRET])).toEqual([]);
  });

  it("takes the values of credential variables, not of the settings beside them", () => {
    const env = {
      OPENAI_API_KEY: "sk-proj-abcdefgh12345678",
      NPM_TOKEN: "npm_abcdefgh12345678",
      ANTHROPIC_AUTH_TOKEN: "auth-token-12345678",
      INPUT_MODEL: "claude-sonnet-4-6",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:4000",
      GIT_AUTHOR_NAME: "Dana Developer",
      SHORT_KEY: "abc",
    };
    expect(credentialValues(env).sort()).toEqual(
      ["auth-token-12345678", "npm_abcdefgh12345678", "sk-proj-abcdefgh12345678"].sort(),
    );
  });
});
