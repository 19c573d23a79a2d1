/**
 * The environment a sandboxed process starts with: built from an allowlist, never by removing
 * what looks secret. A token or key has no name we could rely on, so only what tools need to run
 * is passed (the search path, locale, CI flag, toolchain locations), HOME and TMPDIR point into
 * the sandbox's private directories, and nothing else of the Action's environment gets in.
 */
import { isSecretName } from "./environment.ts";

const EXACT = new Set([
  "PATH",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TERM",
  "CI",
  "NO_COLOR",
  "FORCE_COLOR",
  // Toolchains the runner's setup actions point at.
  "JAVA_HOME",
  "GOROOT",
  "GOPATH",
  "GOFLAGS",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "RUSTUP_TOOLCHAIN",
  "PYTHONPATH",
  "VIRTUAL_ENV",
  "PIPX_HOME",
  "DOTNET_ROOT",
  "ANDROID_HOME",
  "RUNNER_TOOL_CACHE",
  "AGENT_TOOLSDIRECTORY",
]);
const PREFIXES = ["LC_", "JAVA_HOME_", "GOROOT_"];

export interface SandboxEnvironmentOptions {
  readonly home: string;
  readonly tmp: string;
  /** Set when the egress proxy is reachable inside the sandbox at this URL. */
  readonly proxyUrl?: string;
  readonly keep?: readonly string[];
}

export function sandboxEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  options: SandboxEnvironmentOptions,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isSecretName(name)) continue;
    if (EXACT.has(name) || PREFIXES.some((prefix) => name.startsWith(prefix))) out[name] = value;
  }
  for (const name of options.keep ?? []) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  out.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  Object.assign(out, {
    HOME: options.home,
    TMPDIR: options.tmp,
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
  });
  if (options.proxyUrl !== undefined) {
    for (const name of ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY"]) {
      out[name] = options.proxyUrl;
    }
    out.NO_PROXY = out.no_proxy = "localhost,127.0.0.1,::1";
    // Not NODE_USE_ENV_PROXY: it doubles node's start-up on every command. npm, pip, cargo, git and
    // curl read the variables above; a bare `fetch` in node finds no network, which fails closed.
  }
  return out;
}

/**
 * What a credential-holding program's environment adds (WrapOptions.holdsCredentials): its
 * launchers read no user or global config but what its own fresh home holds. npm's user config
 * is nothing and its global one a path that cannot exist (npm refuses the same file for both);
 * git's global config is nothing; tools that follow XDG look in the fresh home.
 */
export function ownConfigOnly(home: string): Record<string, string> {
  return {
    npm_config_userconfig: "/dev/null",
    npm_config_globalconfig: "/dev/null/npmrc",
    XDG_CONFIG_HOME: `${home}/.config`,
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
  };
}
