/**
 * Which hosts the sandbox may reach (pure). A pattern is a host name (`registry.npmjs.org`), a
 * wildcard for its subdomains (`*.githubusercontent.com`, which does not match the bare domain),
 * or `*` for every host. Without config the allowlist is the package registries of the
 * ecosystems the repository's top-level files reveal, so installing dependencies works and
 * nothing else is reachable.
 */

export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  const name = host
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^\[(.*)\]$/, "$1");
  return patterns.some((raw) => {
    const pattern = raw.toLowerCase();
    if (pattern === "*") return true;
    if (pattern.startsWith("*.")) return name.endsWith(pattern.slice(1)) && name.length > pattern.length - 1;
    return name === pattern;
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
