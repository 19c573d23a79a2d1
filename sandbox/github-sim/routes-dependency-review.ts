/**
 * GitHub's dependency review (https://docs.github.com/en/rest/dependency-graph/dependency-review),
 * for npm's root `package.json`: the dependencies the head adds or removes against the base, each
 * added version matched against the simulator's advisory database. Like GitHub, a private repository
 * without Advanced Security is refused with 403: dependency review is available for public
 * repositories and, with GitHub Advanced Security, for private ones
 * (https://docs.github.com/en/code-security/supply-chain-security/understanding-your-software-supply-chain/about-dependency-review).
 */
import type { RequestContext, Route, RouteResult } from "./core.ts";
import { readPath, resolveCommit } from "./git.ts";
import { HttpError } from "./http-error.ts";
import type { Advisory, Repo } from "./model.ts";
import { requireRepo } from "./route-helpers.ts";

const DOCS =
  "https://docs.github.com/rest/dependency-graph/dependency-review#get-a-diff-of-the-dependencies-between-commits";

export type Dependencies = Map<string, { version: string; scope: "runtime" | "development" }>;

/** An npm manifest's dependencies and dev dependencies, versions without their range operator; none when it is absent or not JSON. */
export function dependenciesOf(manifest: string | null): Dependencies {
  const found: Dependencies = new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifest ?? "null");
  } catch {
    return found;
  }
  const sections = [
    ["dependencies", "runtime"],
    ["devDependencies", "development"],
  ] as const;
  for (const [key, scope] of sections) {
    const section = (parsed as Record<string, unknown> | null)?.[key];
    if (typeof section !== "object" || section === null) continue;
    for (const [name, spec] of Object.entries(section)) {
      if (typeof spec === "string") found.set(name, { version: spec.replace(/^[\^~=v]+/, ""), scope });
    }
  }
  return found;
}

async function manifestAt(repo: Repo, commit: string): Promise<Dependencies> {
  const content = await readPath(repo.gitDir, commit, "package.json");
  return dependenciesOf(content?.type === "file" ? content.content.toString("utf8") : null);
}

function change(
  type: "added" | "removed",
  name: string,
  dependency: { version: string; scope: string },
  advisories: readonly Advisory[],
): Record<string, unknown> {
  const vulnerable =
    type === "added"
      ? advisories.filter(
          (a) => a.ecosystem === "npm" && a.name === name && a.versions.includes(dependency.version),
        )
      : [];
  return {
    change_type: type,
    manifest: "package.json",
    ecosystem: "npm",
    name,
    version: dependency.version,
    package_url: `pkg:npm/${name}@${dependency.version}`,
    license: null,
    source_repository_url: null,
    scope: dependency.scope,
    vulnerabilities: vulnerable.map((a) => ({
      severity: a.severity,
      advisory_ghsa_id: a.ghsaId,
      advisory_summary: a.summary,
      advisory_url: `https://github.com/advisories/${a.ghsaId}`,
    })),
  };
}

async function compareDependencies(ctx: RequestContext): Promise<RouteResult> {
  const repo = requireRepo(ctx);
  if (repo.isPrivate && !repo.advancedSecurity) {
    throw new HttpError(403, {
      message: `Dependency review is not supported on this repository. Please ensure that Dependency graph is enabled along with GitHub Advanced Security on private repositories, see https://github.com/${repo.owner}/${repo.name}/settings/security_analysis`,
      documentation_url: DOCS,
      status: "403",
    });
  }
  const [baseRef, headRef] = (ctx.params.basehead ?? "").split("...");
  const base = baseRef ? await resolveCommit(repo.gitDir, baseRef) : null;
  const head = headRef ? await resolveCommit(repo.gitDir, headRef) : null;
  if (!base || !head) {
    throw new HttpError(404, { message: "Not Found", documentation_url: DOCS, status: "404" });
  }
  const before = await manifestAt(repo, base);
  const after = await manifestAt(repo, head);
  const changes: Record<string, unknown>[] = [];
  for (const [name, dependency] of before) {
    if (after.get(name)?.version !== dependency.version) {
      changes.push(change("removed", name, dependency, ctx.core.store.advisories));
    }
  }
  for (const [name, dependency] of after) {
    if (before.get(name)?.version !== dependency.version) {
      changes.push(change("added", name, dependency, ctx.core.store.advisories));
    }
  }
  return { status: 200, body: changes };
}

export const dependencyReviewRoutes: Route[] = [
  {
    method: "GET",
    template: "/repos/{owner}/{repo}/dependency-graph/compare/{basehead}",
    auth: "token",
    handler: compareDependencies,
  },
];
