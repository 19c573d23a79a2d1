/**
 * GitHub's dependency review on the typed fake (github-fake.ts), for npm's
 * root `package.json` as the simulator models it
 * (sandbox/github-sim/routes-dependency-review.ts): the dependencies `head`
 * adds or removes against `base`, each added version matched against the
 * advisories a test seeds; a private repository without Advanced Security is
 * refused with GitHub's 403, which Locus keeps as a check that could not run
 * (https://docs.github.com/en/code-security/supply-chain-security/understanding-your-software-supply-chain/about-dependency-review).
 * The manifests come from `manifestAt`, which reads them where the branches
 * are (the task world's remote). test/fakes/github-fake-parity.test.ts checks
 * the answers against the simulator.
 */
import type { DependencyChange, GitHubGateway } from "../../lib/github/index.ts";
import type { Advisory } from "../../sandbox/github-sim/model.ts";
import { dependenciesOf } from "../../sandbox/github-sim/routes-dependency-review.ts";
import type { GitHubFake } from "./github-fake.ts";

/** The repository's side of the review; a test changes it as a repository's settings change. */
export interface FakeDependencyReview {
  isPrivate: boolean;
  advancedSecurity: boolean;
  readonly advisories: Advisory[];
}

function changeOf(
  change: "added" | "removed",
  name: string,
  version: string,
  advisories: readonly Advisory[],
): DependencyChange {
  const known = change === "added" ? advisories : [];
  return {
    change,
    manifest: "package.json",
    ecosystem: "npm",
    name,
    version,
    advisories: known
      .filter((a) => a.ecosystem === "npm" && a.name === name && a.versions.includes(version))
      .map((a) => ({
        severity: a.severity,
        id: a.ghsaId,
        summary: a.summary,
        url: `https://github.com/advisories/${a.ghsaId}`,
      })),
  };
}

/** The fake with its dependency review answered from `manifestAt` and `review`. */
export function withDependencyReview(
  fake: GitHubFake,
  manifestAt: (ref: string) => Promise<string | null>,
  review: FakeDependencyReview,
): GitHubFake {
  const compareDependencies: GitHubGateway["compareDependencies"] = async (base, head) => {
    fake.store.record("compareDependencies", [base, head]);
    if (review.isPrivate && !review.advancedSecurity) {
      const { owner, repo } = fake.store.repo;
      return {
        available: false,
        reason: `GitHub answered 403: Dependency review is not supported on this repository. Please ensure that Dependency graph is enabled along with GitHub Advanced Security on private repositories, see https://github.com/${owner}/${repo}/settings/security_analysis`,
      };
    }
    const before = dependenciesOf(await manifestAt(base));
    const after = dependenciesOf(await manifestAt(head));
    const changes: DependencyChange[] = [];
    for (const [name, { version }] of before)
      if (after.get(name)?.version !== version)
        changes.push(changeOf("removed", name, version, review.advisories));
    for (const [name, { version }] of after)
      if (before.get(name)?.version !== version)
        changes.push(changeOf("added", name, version, review.advisories));
    return { available: true, changes };
  };
  return { ...fake, compareDependencies };
}
