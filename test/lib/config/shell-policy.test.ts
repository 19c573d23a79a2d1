import { describe, expect, it } from "vitest";
import { DEFAULT_SHELL_DENY, decideShellCommand, matchesShellPolicy } from "../../../lib/config/index.ts";
import { commandMentions } from "../../../lib/config/shell-policy.ts";

const defaults = { allow: ["*"], deny: DEFAULT_SHELL_DENY };

describe("matchesShellPolicy with the default policy", () => {
  it.each([
    "git push origin main",
    "git push",
    "  git   push --force  ",
    "git\tpush",
    "git \\\npush origin main",
    "git remote add evil https://example.com/x.git",
    "git remote set-url origin https://example.com/x.git",
    "git config credential.helper store",
    "git fetch --upload-pack='sh -c evil' origin",
    "git send-pack --receive-pack=evil origin",
    "git clone 'ext::sh -c evil' x",
    "npm test && git push",
    "npm test; git push",
    "npm test\ngit push",
    "true || git push",
    "echo $(git push)",
    "echo `git push`",
    "(git push)",
  ])("refuses %j", (command) => {
    expect(matchesShellPolicy(command, defaults)).toBe(false);
  });

  it.each([
    "npm test",
    "git status",
    "git commit -m 'fix: x'",
    "git diff HEAD~1",
    "echo git push",
    "ls -la | wc -l",
  ])("allows %j", (command) => {
    expect(matchesShellPolicy(command, defaults)).toBe(true);
  });

  // Documented limitation: a glob sees text, not the program a shell would run. These still get
  // nowhere because the agent's shell has no credentials; the policy is not the sandbox.
  it.each(["git -c user.name=x push", "/usr/bin/git push", "env git push", '"git" push', "sh -c 'git push'"])(
    "does not catch the same program spelled differently: %j",
    (command) => {
      expect(matchesShellPolicy(command, defaults)).toBe(true);
    },
  );
});

describe("decideShellCommand", () => {
  it("lets deny win over an allow pattern that also matches", () => {
    const policy = { allow: ["git push*"], deny: ["git push*"] };
    expect(decideShellCommand("git push", policy)).toEqual({
      allowed: false,
      reason: "denied",
      pattern: "git push*",
      matched: "git push",
    });
  });

  it("names the piece of a compound command that was denied", () => {
    expect(decideShellCommand("npm ci && git remote -v", defaults)).toEqual({
      allowed: false,
      reason: "denied",
      pattern: "git remote*",
      matched: "git remote -v",
    });
  });

  it("needs every piece of a compound command to be allowed", () => {
    const policy = { allow: ["npm test*", "git status"], deny: [] };
    expect(decideShellCommand("npm test -- --run", policy)).toEqual({ allowed: true });
    expect(decideShellCommand("git status && npm test", policy)).toEqual({ allowed: true });
    expect(decideShellCommand("npm test; curl https://example.com", policy)).toEqual({
      allowed: false,
      reason: "not-allowed",
      matched: "curl https://example.com",
    });
    expect(decideShellCommand("ls", policy)).toEqual({
      allowed: false,
      reason: "not-allowed",
      matched: "ls",
    });
  });

  it("errs toward refusing when quotes hide a control character under a narrow allowlist", () => {
    const policy = { allow: ["npm *"], deny: [] };
    expect(matchesShellPolicy('npm test -- --grep "a|b"', policy)).toBe(false);
  });

  it("refuses nothing with an empty deny list and allow *", () => {
    expect(matchesShellPolicy("git push --force", { allow: ["*"], deny: [] })).toBe(true);
    expect(matchesShellPolicy("", { allow: ["*"], deny: [] })).toBe(true);
  });

  it("refuses everything with an empty allow list", () => {
    expect(matchesShellPolicy("npm test", { allow: [], deny: [] })).toBe(false);
  });
});

describe("glob patterns", () => {
  const allows = (pattern: string, command: string) =>
    matchesShellPolicy(command, { allow: [pattern], deny: [] });

  it("match the whole command, not a part of it", () => {
    expect(allows("npm", "npm")).toBe(true);
    expect(allows("npm", "npm test")).toBe(false);
    expect(allows("test", "npm test")).toBe(false);
    expect(allows("*test", "npm test")).toBe(true);
  });

  it("let * stand for any run of characters, spaces and none included", () => {
    expect(allows("a*b*c", "abc")).toBe(true);
    expect(allows("a*b*c", "a x b y c")).toBe(true);
    expect(allows("a*b*c", "a x b y")).toBe(false);
    expect(allows("**", "anything at all")).toBe(true);
  });

  it("treat every other character literally, regex metacharacters included", () => {
    expect(allows("make build.all", "make buildXall")).toBe(false);
    expect(allows("ls ?", "ls a")).toBe(false);
    expect(allows("ls [ab]", "ls [ab]")).toBe(true);
    expect(allows("echo a+", "echo aa")).toBe(false);
  });

  it("are case-sensitive, like the programs they name", () => {
    expect(allows("npm test", "NPM TEST")).toBe(false);
  });

  it("stay fast on patterns that make a backtracking regex explode", () => {
    const started = performance.now();
    expect(allows("*a*a*a*a*a*a*a*a*b", "a".repeat(20_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("commandMentions (a command hook's pattern)", () => {
  it("matches the whole command or any part of a chain, as a deny pattern does", () => {
    expect(commandMentions("npm *", "npm test")).toBe(true);
    expect(commandMentions("npm *", "cd web &&  npm   test")).toBe(true);
    expect(commandMentions("npm *", "echo $(npm bin)")).toBe(true);
    expect(commandMentions("npm *", "echo npm test")).toBe(false);
    expect(commandMentions("npm *", "pnpm test")).toBe(false);
  });
});
