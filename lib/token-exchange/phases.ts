/**
 * The two phases of a Locus run and the installation permissions each may
 * hold. The agent phase reads the code and edits its status comment; only the
 * publish phase, which starts after the agent stopped, may write contents and
 * pull requests. Both read check runs and suites (fix-ci: GitHub asks
 * `checks: read` for them on private repositories) and the workflow run (the
 * task read's `resource(url:)` asks `actions: read`). Neither ever holds
 * `workflows` or `actions: write`, whatever a caller asks for.
 * https://docs.github.com/en/rest/authentication/permissions-required-for-github-apps
 */
const PHASES = ["agent", "publish"] as const;
export type Phase = (typeof PHASES)[number];

export type PermissionLevel = "read" | "write";
export type PhasePermissions = Readonly<Record<string, PermissionLevel>>;

const PERMISSIONS: Record<Phase, PhasePermissions> = {
  agent: { issues: "write", pull_requests: "read", contents: "read", checks: "read", actions: "read" },
  publish: { contents: "write", issues: "write", pull_requests: "write", checks: "read", actions: "read" },
};

export function phasePermissions(phase: Phase): PhasePermissions {
  return PERMISSIONS[phase];
}

export function isPhase(value: unknown): value is Phase {
  return typeof value === "string" && (PHASES as readonly string[]).includes(value);
}
