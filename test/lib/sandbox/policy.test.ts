import { describe, expect, it } from "vitest";
import { renderJobSummary } from "../../../lib/task/job-summary.ts";
import { defaultAllowedHosts, hostAllowed, parseHostRule } from "../../../lib/sandbox/host-patterns.ts";
import { sandboxEnvironment } from "../../../lib/sandbox/sandbox-environment.ts";
import { bwrapArgs } from "../../../lib/sandbox/bwrap-args.ts";
import { hostMounts } from "../../../lib/sandbox/sandbox-mounts.ts";
import { EMPTY_STATE, renderStatusComment, UNSANDBOXED_NOTE } from "../../../lib/status/status-comment.ts";

describe("egress host patterns", () => {
  const to = (host: string, port = 443) => ({ host, port });

  it("match a host exactly, subdomains with *., everything with *", () => {
    expect(hostAllowed(to("registry.npmjs.org"), ["registry.npmjs.org"])).toBe(true);
    expect(hostAllowed(to("Registry.NPMJS.org."), ["registry.npmjs.org"])).toBe(true);
    expect(hostAllowed(to("evil-registry.npmjs.org"), ["registry.npmjs.org"])).toBe(false);
    expect(hostAllowed(to("registry.npmjs.org.evil.com"), ["registry.npmjs.org"])).toBe(false);
    expect(hostAllowed(to("a.example.com"), ["*.example.com"])).toBe(true);
    expect(hostAllowed(to("example.com"), ["*.example.com"])).toBe(false);
    expect(hostAllowed(to("badexample.com"), ["*.example.com"])).toBe(false);
    expect(hostAllowed(to("anything.test"), ["*"])).toBe(true);
    expect(hostAllowed(to("127.0.0.1"), [])).toBe(false);
  });

  it("allow 443 and 80 for a rule without a port, exactly the named port for host:port", () => {
    expect(hostAllowed(to("registry.npmjs.org", 80), ["registry.npmjs.org"])).toBe(true);
    expect(hostAllowed(to("registry.npmjs.org", 22), ["registry.npmjs.org"])).toBe(false);
    expect(hostAllowed(to("a.example.com", 5432), ["*.example.com", "*"])).toBe(false);
    expect(hostAllowed(to("git.example.com", 8443), ["git.example.com:8443"])).toBe(true);
    expect(hostAllowed(to("git.example.com", 443), ["git.example.com:8443"])).toBe(false);
    expect(hostAllowed(to("::1", 8080), ["[::1]:8080"])).toBe(true);
  });

  it("never let a wildcard stand for a loopback host; only a rule naming it with its port", () => {
    for (const host of [
      "127.0.0.1",
      "127.9.9.9",
      "localhost",
      "api.localhost",
      "::1",
      "::ffff:127.0.0.1",
      "0.0.0.0",
    ])
      expect(hostAllowed(to(host), ["*", "*.localhost"]), host).toBe(false);
    expect(hostAllowed(to("127.0.0.1", 4100), ["127.0.0.1:4100"])).toBe(true);
    expect(hostAllowed(to("127.0.0.1", 4101), ["127.0.0.1:4100"])).toBe(false);
    expect(hostAllowed(to("127.0.0.1", 443), ["127.0.0.1:4100"])).toBe(false);
  });

  it("parse rules as host or host:port with a port in 1-65535, and nothing else", () => {
    expect(parseHostRule("Registry.npmjs.org")).toEqual({ host: "registry.npmjs.org", ports: [443, 80] });
    expect(parseHostRule("git.example.com:8443")).toEqual({ host: "git.example.com", ports: [8443] });
    expect(parseHostRule("[::1]:4100")).toEqual({ host: "::1", ports: [4100] });
    for (const bad of [
      "host:99999",
      "host:0",
      "host:",
      "host:22:1",
      "http://host",
      "a b",
      "ho*st",
      "host/x",
      "-x.com:1e3",
    ])
      expect(parseHostRule(bad), bad).toBeUndefined();
  });

  it("default to the registries of the ecosystems at the repository's top level", () => {
    expect(defaultAllowedHosts(["README.md", "src"])).toEqual([]);
    expect(defaultAllowedHosts(["package.json", "requirements.txt", "pyproject.toml"])).toEqual([
      "registry.npmjs.org",
      "registry.yarnpkg.com",
      "pypi.org",
      "files.pythonhosted.org",
    ]);
    expect(defaultAllowedHosts(["go.mod"])).toEqual(["proxy.golang.org", "sum.golang.org"]);
  });
});

describe("the sandbox's environment", () => {
  it("is an allowlist: no token, key or input, private HOME and TMPDIR, the proxy set", () => {
    const env = sandboxEnvironment(
      {
        PATH: "/usr/bin",
        LANG: "C.UTF-8",
        LC_ALL: "C",
        CI: "true",
        JAVA_HOME: "/opt/java",
        HOME: "/home/runner",
        GITHUB_TOKEN: "ghs_x",
        INPUT_GITHUB_TOKEN: "ghs_x",
        ACTIONS_RUNTIME_TOKEN: "t",
        ACTIONS_ID_TOKEN_REQUEST_URL: "u",
        RUNNER_TEMP: "/home/runner/work/_temp",
        GITHUB_ENV: "/home/runner/work/_temp/_runner_file_commands/set_env",
        NODE_OPTIONS: "--require /tmp/evil.js",
        SOME_API_KEY: "k",
      },
      { home: "/home/locus", tmp: "/tmp", proxyUrl: "http://127.0.0.1:3128" },
    );
    expect(env).toEqual({
      PATH: "/usr/bin",
      LANG: "C.UTF-8",
      LC_ALL: "C",
      CI: "true",
      JAVA_HOME: "/opt/java",
      HOME: "/home/locus",
      TMPDIR: "/tmp",
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_NOSYSTEM: "1",
      HTTP_PROXY: "http://127.0.0.1:3128",
      HTTPS_PROXY: "http://127.0.0.1:3128",
      http_proxy: "http://127.0.0.1:3128",
      https_proxy: "http://127.0.0.1:3128",
      ALL_PROXY: "http://127.0.0.1:3128",
      NO_PROXY: "localhost,127.0.0.1,::1",
      no_proxy: "localhost,127.0.0.1,::1",
    });
  });

  it("passes a CLI agent's own credential only when asked to", () => {
    const env = sandboxEnvironment(
      { PATH: "/usr/bin", ANTHROPIC_API_KEY: "sk-ant-x", GITHUB_TOKEN: "ghs_x" },
      { home: "/home/locus", tmp: "/tmp", keep: ["ANTHROPIC_API_KEY"] },
    );
    expect(env["ANTHROPIC_API_KEY"]).toBe("sk-ant-x");
    expect(env["GITHUB_TOKEN"]).toBeUndefined();
  });
});

describe("an unsandboxed run says so", () => {
  it("in its status comment and its job summary; a sandboxed one lists what its proxy refused", () => {
    expect(renderStatusComment({ headline: "Working" }, { ...EMPTY_STATE, unsandboxed: true })).toContain(
      UNSANDBOXED_NOTE,
    );
    expect(renderStatusComment({ headline: "Working" }, EMPTY_STATE)).not.toContain(UNSANDBOXED_NOTE);
    const result = { tasks: [] };
    expect(renderJobSummary("issue", result, { kind: "off", refused: [] })).toContain(UNSANDBOXED_NOTE);
    const summary = renderJobSummary("issue", result, {
      kind: "bubblewrap",
      refused: [
        { host: "exfil.example", count: 3 },
        { host: "pypi.org", count: 1 },
      ],
    });
    expect(summary).not.toContain(UNSANDBOXED_NOTE);
    expect(summary).toContain("| `exfil.example` | 3 |\n| `pypi.org` | 1 |");
  });
});

describe("the sandbox's mounts", () => {
  it("cover a self-hosted runner's directories that sit inside a read-only system directory", () => {
    const mounts = hostMounts(
      { PATH: "/usr/bin", HOME: "/home/runner", RUNNER_TEMP: "/opt/actions-runner/_work/_temp" },
      process.execPath,
    );
    expect(mounts.readOnly).toContain("/usr");
    expect(mounts.masked).toEqual(["/opt/actions-runner/_work/_temp", "/opt/actions-runner/_work"]);
    const args = bwrapArgs(
      {
        ...mounts,
        tmp: { source: "/host/tmp", dest: "/tmp" },
        home: { source: "/host/home", dest: "/home/locus" },
        worktree: "/opt/actions-runner/_work/_temp/locus-worktrees/issue-1",
        readOnlyGit: [],
      },
      ["true"],
    );
    const opt = args.indexOf("/opt");
    const mask = args.indexOf("/opt/actions-runner/_work");
    const worktree = args.lastIndexOf("/opt/actions-runner/_work/_temp/locus-worktrees/issue-1");
    expect(opt).toBeGreaterThan(-1);
    expect(args[mask - 1]).toBe("--tmpfs");
    expect(mask).toBeGreaterThan(opt);
    expect(worktree).toBeGreaterThan(mask);
  });

  it("unset the variables a spawner adds of the login identity", () => {
    const args = bwrapArgs(
      {
        readOnly: ["/usr"],
        symlinks: [],
        tmp: { source: "/host/tmp", dest: "/tmp" },
        home: { source: "/host/home", dest: "/home/locus" },
        worktree: "/work/issue-1",
        readOnlyGit: [],
        unsetEnv: ["USER", "LOGNAME"],
      },
      ["true"],
    );
    expect(args.join(" ")).toContain("--unsetenv USER --unsetenv LOGNAME --chdir /work/issue-1 -- true");
  });
});
