/**
 * Which hosts and ports the sandbox may reach (pure). A rule is a host name
 * (`registry.npmjs.org`), a wildcard for its subdomains (`*.githubusercontent.com`, which does
 * not match the bare domain) or `*` for every host, each with an optional `:port`. A rule
 * without a port allows 443 and 80 only, so an allowed host is not a way to reach its SSH or
 * database port. A loopback host (`localhost`, `127.0.0.1`, `[::1]`) is reached only through a
 * rule that names it with its port, never through a wildcard. Without config the allowlist is the
 * package registries of the ecosystems the repository's top-level files reveal, so installing
 * dependencies works and nothing else is reachable.
 */
import { BlockList, isIP } from "node:net";

/** The ports a rule without one allows: HTTPS and HTTP. */
export const DEFAULT_PORTS: readonly number[] = [443, 80];

/** Where a request wants to go, as the proxy read it. */
export interface EgressTarget {
  readonly host: string;
  readonly port: number;
}

export interface HostRule {
  /** Lower case, no trailing dot, an IPv6 literal without its brackets. */
  readonly host: string;
  readonly ports: readonly number[];
}

/** A TCP port as text: digits only, 1–65535; anything else is no port. */
export function parsePort(text: string): number | undefined {
  if (!/^[0-9]{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? port : undefined;
}

export function normalHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}

const NAME = /^(?:\*|(?:\*\.)?[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*)$/;

/** `host`, `*.domain`, `*`, `[v6]`, each optionally `:port`; undefined when it is none of these. */
export function parseHostRule(raw: string): HostRule | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+)(?::([^:]*))?$/.exec(raw.trim());
  if (!match?.[1]) return undefined;
  const host = normalHost(match[1]);
  if (!(NAME.test(host) || isIP(host) !== 0)) return undefined;
  if (match[2] === undefined) return { host, ports: DEFAULT_PORTS };
  const port = parsePort(match[2]);
  return port === undefined ? undefined : { host, ports: [port] };
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("0.0.0.0", "ipv4");
LOOPBACK.addAddress("::1", "ipv6");
LOOPBACK.addAddress("::", "ipv6");

/** Names and addresses that reach the machine the proxy runs on (IPv4-mapped forms too). */
export function isLoopback(host: string): boolean {
  const name = normalHost(host);
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  const family = isIP(name);
  return family !== 0 && LOOPBACK.check(name, family === 4 ? "ipv4" : "ipv6");
}

function ruleMatches(rule: HostRule, target: EgressTarget): boolean {
  if (!rule.ports.includes(target.port)) return false;
  const name = normalHost(target.host);
  // A wildcard never stands for the proxy's own machine; only a rule naming it does.
  if (rule.host === "*") return !isLoopback(name);
  if (rule.host.startsWith("*."))
    return name.endsWith(rule.host.slice(1)) && name.length > rule.host.length - 1 && !isLoopback(name);
  return name === rule.host;
}

export function hostAllowed(target: EgressTarget, rules: readonly string[]): boolean {
  return rules.some((raw) => {
    const rule = parseHostRule(raw);
    return rule !== undefined && ruleMatches(rule, target);
  });
}

const ECOSYSTEMS: readonly { readonly files: readonly string[]; readonly hosts: readonly string[] }[] = [
  { files: ["package.json"], hosts: ["registry.npmjs.org", "registry.yarnpkg.com"] },
  {
    files: ["pyproject.toml", "requirements.txt", "setup.py", "setup.cfg", "Pipfile"],
    hosts: ["pypi.org", "files.pythonhosted.org"],
  },
  { files: ["Cargo.toml"], hosts: ["crates.io", "index.crates.io", "static.crates.io"] },
  { files: ["go.mod"], hosts: ["proxy.golang.org", "sum.golang.org"] },
  { files: ["Gemfile"], hosts: ["rubygems.org", "index.rubygems.org"] },
  {
    files: ["pom.xml", "build.gradle", "build.gradle.kts"],
    hosts: ["repo.maven.apache.org", "repo1.maven.org", "plugins.gradle.org", "services.gradle.org"],
  },
  { files: ["composer.json"], hosts: ["repo.packagist.org"] },
];

/** The registries of the ecosystems whose marker files are among `files` (top-level names). */
export function defaultAllowedHosts(files: readonly string[]): string[] {
  const present = new Set(files);
  return [
    ...new Set(
      ECOSYSTEMS.filter((ecosystem) => ecosystem.files.some((file) => present.has(file))).flatMap(
        (ecosystem) => ecosystem.hosts,
      ),
    ),
  ];
}

/**
 * The runner's loopback services the allowlist names with a port (`127.0.0.1:5432`, `localhost:6379`,
 * a service container's published port): each is forwarded into the sandbox on the same port
 * (session-init.ts). A rule without a port stands for 443 and 80 and names no service; `reserved`
 * (the proxy relay's own port) is never taken.
 */
export function loopbackServices(
  rules: readonly string[],
  reserved: number,
): { host: string; port: number }[] {
  const services = new Map<number, { host: string; port: number }>();
  for (const raw of rules) {
    const rule = parseHostRule(raw);
    const port = /:[0-9]+$/.test(raw.trim()) ? rule?.ports[0] : undefined;
    if (!rule || port === undefined || port === reserved || !isLoopback(rule.host)) continue;
    if (!services.has(port))
      services.set(port, { host: rule.host.includes(":") ? `[${rule.host}]` : rule.host, port });
  }
  return [...services.values()];
}
