/**
 * The small zod pieces several config sections share: a trimmed non-empty
 * string, an environment variable's name, and egress rules.
 */
import { z } from "zod";
import { parseHostRule } from "../sandbox/host-patterns.ts";

export const nonEmpty = z.string().trim().min(1);

export const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name");

/** Egress rules: `host` or `host:port`, as the proxy reads them (lib/sandbox/host-patterns.ts). */
export const hostRules = z.array(
  nonEmpty.refine(
    (rule) => parseHostRule(rule) !== undefined,
    "expected `host` or `host:port` (a host name, `*.domain`, `*` or an IP address; port 1-65535)",
  ),
);
