/**
 * Credentials for private registries, added by the egress proxy and never handed to the sandbox
 * (pure). Config names a host and the name of a secret the workflow passes; the Action looks the
 * name up among the secrets it was given and the proxy puts the value in the `Authorization`
 * header of the requests the sandbox sends to that host. The sandbox therefore speaks plain HTTP
 * to the proxy for such a host (`http://npm.pkg.github.com/…`, an ordinary forward-proxy
 * request), and the proxy makes the request upstream over HTTPS itself: inside a `CONNECT`
 * tunnel it could add nothing without the sandbox holding the secret or trusting a certificate
 * of Locus's.
 */
import { isLoopback, normalHost, parseHostRule, type EgressTarget } from "./host-patterns.ts";

/** `bearer`: `Authorization: Bearer <value>`; `basic`: the value is `user:password`. */
export type CredentialScheme = "bearer" | "basic";

/** One host's credential as config names it. */
export interface CredentialRule {
  /** `host` or `host:port`, never a wildcard. */
  readonly host: string;
  /** The name of the secret the workflow passes (`registry-credentials` input). */
  readonly secret: string;
  readonly scheme: CredentialScheme;
}

/** A credential ready for the proxy: where it goes and the header value it adds. */
export interface HostCredential {
  readonly host: string;
  readonly authorization: string;
}

/** The secret names config uses that the workflow did not pass, in config order. */
export function missingSecrets(
  rules: readonly CredentialRule[],
  secrets: Readonly<Record<string, string>>,
): string[] {
  return [...new Set(rules.map((rule) => rule.secret))].filter((name) => !secrets[name]);
}

/** The rules with their secrets' values as header values; a rule whose secret is missing is left out. */
export function hostCredentials(
  rules: readonly CredentialRule[],
  secrets: Readonly<Record<string, string>>,
): HostCredential[] {
  return rules.flatMap((rule) => {
    const value = secrets[rule.secret];
    if (!value) return [];
    const authorization =
      rule.scheme === "basic" ? `Basic ${Buffer.from(value).toString("base64")}` : `Bearer ${value}`;
    return [{ host: rule.host, authorization }];
  });
}

/** Where the proxy sends a request for a credentialed host, and the header it adds. */
export interface CredentialedUpstream {
  /** `https://host[:port]`; `http://` only for a loopback host, whose traffic never leaves the machine. */
  readonly origin: string;
  readonly authorization: string;
}

/**
 * The upstream for a plain-HTTP request to `target`, when a credential names its host: a rule
 * without a port matches the sandbox's requests on port 80 and goes to HTTPS on 443; a rule with
 * a port matches that port and keeps it.
 */
export function credentialFor(
  target: EgressTarget,
  credentials: readonly HostCredential[],
): CredentialedUpstream | undefined {
  const name = normalHost(target.host);
  for (const credential of credentials) {
    const rule = parseHostRule(credential.host);
    if (rule === undefined || rule.host.includes("*") || rule.host !== name) continue;
    const port = rule.ports.length === 1 ? rule.ports[0] : undefined;
    if (target.port !== (port ?? 80)) continue;
    const host = name.includes(":") ? `[${name}]` : name;
    const scheme = isLoopback(name) ? "http" : "https";
    return {
      origin: port === undefined ? `${scheme}://${host}` : `${scheme}://${host}:${port}`,
      authorization: credential.authorization,
    };
  }
  return undefined;
}

/**
 * The URL and headers the proxy sends upstream for a request the sandbox made to `url`: a
 * credentialed host gets its upstream origin and the credential, in place of any `Authorization`
 * the sandbox sent; every other host gets the request as it came.
 */
export function upstreamRequest(
  url: URL,
  target: EgressTarget,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  credentials: readonly HostCredential[],
): { url: URL; headers: Record<string, string | string[] | undefined> } {
  const credentialed = credentialFor(target, credentials);
  if (credentialed === undefined) return { url, headers: { ...headers, host: url.host } };
  const upstream = new URL(`${url.pathname}${url.search}`, credentialed.origin);
  const { authorization: _sent, "proxy-authorization": _proxy, "proxy-connection": _hop, ...kept } = headers;
  return {
    url: upstream,
    headers: { ...kept, host: upstream.host, authorization: credentialed.authorization },
  };
}
