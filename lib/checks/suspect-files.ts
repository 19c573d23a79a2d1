/**
 * Files a branch probably should not carry: very large additions, minified or
 * bundled output, vendored directories, and a lockfile that changed while its
 * manifest did not (churn from an install, not a dependency decision). Each
 * is reported for a person to judge, never removed. Pure: the branch's file
 * stats in, the suspicions out.
 */
import type { FileStat } from "../git/git-client.ts";

export interface SuspectFile {
  readonly path: string;
  readonly why: string;
}

/** Lines added to one file beyond which it is more likely generated than written. */
export const LARGE_FILE_LINES = 5_000;

const GENERATED = [
  { pattern: /(^|\/)[^/]+\.min\.(js|css|mjs)$/, why: "looks minified" },
  { pattern: /(^|\/)[^/]+\.(bundle|chunk)\.(js|mjs)$/, why: "looks like a bundle" },
  {
    pattern: /(^|\/)(node_modules|vendor|third_party|bower_components)\//,
    why: "looks like a vendored directory",
  },
  { pattern: /\.map$/, why: "looks like a source map" },
];

/** Lockfile → the manifests that decide it (any one of them changing explains the lockfile). */
const LOCKFILES: readonly (readonly [RegExp, readonly string[]])[] = [
  [/(^|\/)package-lock\.json$/, ["package.json"]],
  [/(^|\/)npm-shrinkwrap\.json$/, ["package.json"]],
  [/(^|\/)yarn\.lock$/, ["package.json"]],
  [/(^|\/)pnpm-lock\.yaml$/, ["package.json", "pnpm-workspace.yaml"]],
  [/(^|\/)Cargo\.lock$/, ["Cargo.toml"]],
  [/(^|\/)poetry\.lock$/, ["pyproject.toml"]],
  [/(^|\/)uv\.lock$/, ["pyproject.toml"]],
  [/(^|\/)Gemfile\.lock$/, ["Gemfile"]],
  [/(^|\/)go\.sum$/, ["go.mod"]],
  [/(^|\/)composer\.lock$/, ["composer.json"]],
];

function directoryOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash + 1);
}

export function suspectFiles(files: readonly FileStat[]): SuspectFile[] {
  const changed = new Set(files.map((file) => file.path));
  const found: SuspectFile[] = [];
  for (const file of files) {
    const generated = GENERATED.find(({ pattern }) => pattern.test(file.path));
    if (generated) {
      found.push({
        path: file.path,
        why: generated.why,
      });
      continue;
    }
    const lock = LOCKFILES.find(([pattern]) => pattern.test(file.path));
    if (lock && !lock[1].some((manifest) => changed.has(directoryOf(file.path) + manifest))) {
      found.push({ path: file.path, why: `lockfile changed while ${lock[1].join(" / ")} did not` });
      continue;
    }
    if (file.additions > LARGE_FILE_LINES) {
      found.push({
        path: file.path,
        why: `${file.additions} lines added, more than is usually written by hand`,
      });
    }
  }
  return found;
}

/**
 * Files the dependency graph reads dependencies from (GitHub's supported
 * ecosystems, https://docs.github.com/en/code-security/supply-chain-security/understanding-your-software-supply-chain/dependency-graph-supported-package-ecosystems):
 * a branch that changes none of them changes no dependency, so the review is not asked.
 */
const MANIFESTS =
  /(^|\/)(package(-lock)?\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|requirements[^/]*\.txt|pyproject\.toml|poetry\.lock|uv\.lock|Pipfile(\.lock)?|setup\.py|Cargo\.(toml|lock)|go\.(mod|sum)|Gemfile(\.lock)?|[^/]+\.gemspec|composer\.(json|lock)|pom\.xml|build\.gradle(\.kts)?|[^/]+\.csproj|packages\.config|mix\.(exs|lock)|pubspec\.(yaml|lock)|Package\.(swift|resolved))$|(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/;

export function changesDependencies(files: readonly FileStat[]): boolean {
  return files.some((file) => MANIFESTS.test(file.path));
}
