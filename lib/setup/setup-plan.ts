/**
 * What runs in the worktree before the agent: the configured `setup.commands`, or, when the
 * repository configures none, the install command its lockfile implies, so the agent does not
 * spend its first turns installing dependencies. Pure: it takes the top-level file names.
 */
import { defaultAllowedHosts } from "../sandbox/host-patterns.ts";

/** Where the commands came from, which the status comment says. */
export type SetupSource = "configured" | "default" | "none";

export interface SetupPlan {
  readonly source: SetupSource;
  readonly commands: readonly string[];
  /** Hosts added to the egress allowlist while setup runs, and only then. */
  readonly networkAllow: readonly string[];
}

/** The `setup` block of `.github/locus.yml` as parsed. */
export interface SetupConfig {
  readonly commands?: readonly string[] | undefined;
  readonly network: { readonly allow?: readonly string[] | undefined };
}

/**
 * Lockfile → the install that reproduces it exactly and never rewrites it. Order matters: the
 * first lockfile found wins, so a repository with one package manager's lockfile gets that one.
 */
const DEFAULT_INSTALLS: readonly { readonly lockfile: string; readonly command: string }[] = [
  { lockfile: "package-lock.json", command: "npm ci" },
  { lockfile: "npm-shrinkwrap.json", command: "npm ci" },
  { lockfile: "pnpm-lock.yaml", command: "pnpm install --frozen-lockfile" },
  { lockfile: "yarn.lock", command: "yarn install --immutable" },
  { lockfile: "bun.lock", command: "bun install --frozen-lockfile" },
  { lockfile: "uv.lock", command: "uv sync --locked" },
  { lockfile: "poetry.lock", command: "poetry install --no-interaction" },
  { lockfile: "Pipfile.lock", command: "pipenv sync" },
  { lockfile: "requirements.txt", command: "pip install -r requirements.txt" },
  { lockfile: "Cargo.lock", command: "cargo fetch --locked" },
  { lockfile: "go.sum", command: "go mod download" },
  { lockfile: "Gemfile.lock", command: "bundle install" },
  { lockfile: "composer.lock", command: "composer install --no-interaction" },
];

/** The install for the first lockfile among `files` (top-level names), or none. */
export function defaultSetupCommands(files: readonly string[]): string[] {
  const present = new Set(files);
  const install = DEFAULT_INSTALLS.find((candidate) => present.has(candidate.lockfile));
  return install === undefined ? [] : [install.command];
}

/**
 * The setup a task runs. Configured commands win (`[]` turns setup off); absent, the default
 * install runs. The setup's extra egress is what `setup.network.allow` names, else the
 * registries of the repository's ecosystems, so the default install can reach its registry
 * even where `sandbox.network.allow` shuts the agent out of it.
 */
export function planSetup(config: SetupConfig, files: readonly string[]): SetupPlan {
  const networkAllow = config.network.allow ?? defaultAllowedHosts(files);
  if (config.commands !== undefined) {
    const commands = [...config.commands];
    return { source: commands.length === 0 ? "none" : "configured", commands, networkAllow };
  }
  const commands = defaultSetupCommands(files);
  return { source: commands.length === 0 ? "none" : "default", commands, networkAllow };
}
