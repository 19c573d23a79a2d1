/**
 * A push GitHub refused for a rule rather than for git (pure: it reads the `remote:` lines git
 * relays). A ruleset's refusal and secret scanning's push protection both answer `GH013:
 * Repository rule violations found for <ref>.` and list each broken rule as `- <rule>`; older push
 * protection answers `GH009: Secrets detected!`. What Locus should say follows from the rule:
 * signatures are what `commit.via: api` gives; a secret must leave the commits.
 * https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/troubleshooting-rules
 * https://docs.github.com/en/code-security/secret-scanning/working-with-secret-scanning-and-push-protection/working-with-push-protection-from-the-command-line
 */

export interface PushRefusal {
  /** The ref GitHub named (`refs/heads/…`); empty when it named none. */
  readonly ref: string;
  /** The rules as GitHub worded them, e.g. "Commits must have verified signatures." */
  readonly rules: readonly string[];
  /** `signatures` when a rule asks for signed commits, `secrets` for push protection, else `rule`. */
  readonly kind: "signatures" | "secrets" | "rule";
}

const RULE_VIOLATIONS = /GH013: Repository rule violations found for (\S+?)\.?\s*$/m;
const SECRETS_DETECTED = /GH009: Secrets detected!/;
// A listed rule: `- text` with no `key:` (a location line) and not a section title in capitals.
const RULE_LINE = /^\s*- (?![A-Z ]+$)([^:]+)$/;

export function pushRefusalOf(gitOutput: string): PushRefusal | undefined {
  const text = gitOutput.replace(/^remote: ?/gm, "");
  const violations = RULE_VIOLATIONS.exec(text);
  if (!violations && !SECRETS_DETECTED.test(text)) return undefined;
  const after = violations ? text.slice(violations.index) : text;
  const rules = [
    ...new Set(
      after
        .split("\n")
        .map((line) => RULE_LINE.exec(line)?.[1]?.trim())
        .filter((rule): rule is string => Boolean(rule)),
    ),
  ];
  if (rules.length === 0 && SECRETS_DETECTED.test(text)) rules.push("Secrets detected");
  const kind = rules.some((rule) => /signature/i.test(rule))
    ? "signatures"
    : rules.some((rule) => /secret/i.test(rule)) || /PUSH PROTECTION/.test(text)
      ? "secrets"
      : "rule";
  return { ref: violations?.[1] ?? "", rules: rules.slice(0, 10), kind };
}
