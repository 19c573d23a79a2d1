/**
 * The small zod pieces several config sections share: a trimmed non-empty
 * string and an environment variable's name.
 */
import { z } from "zod";

export const nonEmpty = z.string().trim().min(1);

export const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected an environment variable name");
