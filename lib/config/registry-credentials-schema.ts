/**
 * `sandbox.network.credentials`: a private registry's host → the name of a secret the workflow
 * passes, which the egress proxy adds to the sandbox's requests to that host (as
 * `Authorization: Bearer <value>`, or with `scheme: basic` from a `user:password` value). A host
 * here is allowed without being listed in `sandbox.network.allow`.
 */
import { z } from "zod";
import { parseHostRule } from "../sandbox/host-patterns.ts";
import type { CredentialRule } from "../sandbox/registry-credentials.ts";

/** GitHub's rule for a secret's name: letters, digits and underscores, not starting with a digit. */
const secretName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected the name of a secret (letters, digits and underscores)");

/** A key's problem, as its own issue under the key (zod reports a refused record key only as "Invalid key"). */
function hostProblem(host: string): string | undefined {
  const rule = parseHostRule(host);
  if (rule !== undefined && !rule.host.includes("*")) return undefined;
  return "expected `host` or `host:port`, without a wildcard: a credential goes to one named host";
}

export const registryCredentialsSchema = z
  .record(
    z.string(),
    z.union(
      [
        secretName,
        z.object({
          secret: secretName,
          scheme: z
            .enum(["bearer", "basic"])
            .default("bearer")
            .describe("bearer: `Authorization: Bearer <secret>`; basic: the secret is `user:password`."),
        }),
      ],
      { error: "expected a secret's name, or `{ secret: NAME, scheme: bearer | basic }`" },
    ),
  )
  .superRefine((credentials, context) => {
    for (const host of Object.keys(credentials)) {
      const message = hostProblem(host);
      if (message !== undefined) context.addIssue({ code: "custom", message, path: [host] });
    }
  })
  .optional()
  .describe(
    "Private registries' credentials: `host` (or `host:port`) → the name of a secret the workflow passes in `registry-credentials`. The egress proxy adds it to the sandbox's plain-HTTP requests to that host and sends them on over HTTPS; no process in the sandbox holds it. The host is allowed too.",
  );

/** The config's credentials as rules, in the order written. */
export function credentialRules(credentials: z.output<typeof registryCredentialsSchema>): CredentialRule[] {
  return Object.entries(credentials ?? {}).map(([host, value]) =>
    typeof value === "string"
      ? { host, secret: value, scheme: "bearer" }
      : { host, secret: value.secret, scheme: value.scheme },
  );
}
