/**
 * The two phases of a Locus run and the installation permissions each may
 * hold. The agent phase reads the code and edits its status comment; only the
 * publish phase, which starts after the agent stopped, may write contents and
 * pull requests. Neither ever holds `workflows` or `actions`, whatever a
 * caller asks for.
 */
const PHASES = ["agent", "publish"] as const;
export type Phase = (typeof PHASES)[number];

export type PermissionLevel = "read" | "write";
export type PhasePermissions = Readonly<Record<string, PermissionLevel>>;

const PERMISSIONS: Record<Phase, PhasePermissions> = {
  agent: { issues: "write", pull_requests: "read", contents: "read" },
  publish: { contents: "write", issues: "write", pull_requests: "write" },
};

export function phasePermissions(phase: Phase): PhasePermissions {
  return PERMISSIONS[phase];
}

export function isPhase(value: unknown): value is Phase {
  return typeof value === "string" && (PHASES as readonly string[]).includes(value);
}
