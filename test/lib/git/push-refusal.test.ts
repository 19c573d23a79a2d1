/**
 * GitHub's refusals of a push for a rule, read from what git relays (`remote:` lines): a ruleset's
 * GH013 with the rule it names, push protection's GH013 and the older GH009, and plain git
 * failures that are none of these. Then the failure comment's part that names the rule and what
 * to change, with GitHub's words kept as text.
 */
import { describe, expect, it } from "vitest";
import { pushRefusalOf } from "../../../lib/git/push-refusal.ts";
import { renderFailureComment } from "../../../lib/render/failure-comment.ts";

const SIGNATURES = [
  "remote: error: GH013: Repository rule violations found for refs/heads/locus/issue-7.",
  "remote: Review all repository rules at https://github.com/acme/widgets/rules?ref=refs%2Fheads%2Flocus%2Fissue-7",
  "remote: ",
  "remote: - Commits must have verified signatures.",
  "remote:   Found 1 violation:",
  "remote: ",
  "remote:   9f1c2d3e4b5a69788796a5b4c3d2e1f001122334",
  "To https://github.com/acme/widgets.git",
  " ! [remote rejected] 9f1c2d3 -> locus/issue-7 (push declined due to repository rule violations)",
].join("\n");

const SECRETS = [
  "remote: error: GH013: Repository rule violations found for refs/heads/main.",
  "remote: ",
  "remote: - GITHUB PUSH PROTECTION",
  "remote:   Resolve the following violations before pushing again",
  "remote: ",
  "remote:   - Push cannot contain secrets",
  "remote: ",
  "remote:    —— GitHub Personal Access Token ——",
  "remote:     locations:",
  "remote:       - commit: 9f1c2d3e4b5a69788796a5b4c3d2e1f001122334",
].join("\n");

describe("pushRefusalOf", () => {
  it("reads a ruleset's refusal: the ref and the rule as GitHub worded it", () => {
    expect(pushRefusalOf(SIGNATURES)).toEqual({
      ref: "refs/heads/locus/issue-7",
      rules: ["Commits must have verified signatures."],
      kind: "signatures",
    });
  });

  it("reads push protection's refusal, leaving out titles and locations", () => {
    expect(pushRefusalOf(SECRETS)).toEqual({
      ref: "refs/heads/main",
      rules: ["Push cannot contain secrets"],
      kind: "secrets",
    });
    expect(pushRefusalOf("remote: error: GH009: Secrets detected! This push failed.")?.kind).toBe("secrets");
  });

  it("names any other rule as a rule", () => {
    const text =
      "remote: error: GH013: Repository rule violations found for refs/heads/x.\nremote: - Changes must be made through a pull request.";
    expect(pushRefusalOf(text)).toMatchObject({
      kind: "rule",
      rules: ["Changes must be made through a pull request."],
    });
  });

  it("is undefined for a failure that is not a rule", () => {
    expect(
      pushRefusalOf("fatal: unable to access 'https://github.com/acme/widgets.git/': Could not resolve host"),
    ).toBeUndefined();
    expect(pushRefusalOf(" ! [rejected] HEAD -> main (fetch first)")).toBeUndefined();
  });
});

describe("the failure comment of a refused push", () => {
  it("names the rule, says to set commit.via: api, and that the wip branch was refused too", () => {
    const refusal = pushRefusalOf(SIGNATURES);
    const body = renderFailureComment({
      reason: "GitHub refused the push of locus/issue-7",
      logTail: "",
      ...(refusal ? { pushRefusal: { ...refusal, wipRefused: true } } : {}),
    });
    expect(body).toContain("**GitHub refused the push** to `refs/heads/locus/issue-7` for these rules:");
    expect(body).toContain("- Commits must have verified signatures.");
    expect(body).toContain("**What to change:** set `commit.via: api` in `.github/locus.yml`");
    expect(body).toContain("The same rules refused the work-in-progress branch");
  });

  it("keeps GitHub's words as text: a mention in a rule pings nobody", () => {
    const refusal = pushRefusalOf(
      "remote: error: GH013: Repository rule violations found for refs/heads/x.\nremote: - Ask @octocat first",
    );
    const body = renderFailureComment({
      reason: "refused",
      logTail: "",
      ...(refusal ? { pushRefusal: { ...refusal, wipRefused: false } } : {}),
    });
    expect(body).not.toMatch(/(^|[^`\w])@octocat/);
    expect(body).not.toContain("work-in-progress branch");
  });
});
