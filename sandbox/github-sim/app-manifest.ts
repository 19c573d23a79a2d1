/**
 * The app's grant, read from the GitHub App manifest (`app.yml`) rather than
 * restated here, so the simulator gives an installation exactly what the real
 * app would be granted and a permission missing from the manifest fails a
 * test the way it would fail on GitHub.
 * https://docs.github.com/apps/sharing-github-apps/registering-a-github-app-from-a-manifest
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import type { PermissionSet } from "./token-permissions.ts";

export interface AppManifest {
  /** `default_permissions`, with `metadata: read`, which every app has. */
  readonly permissions: PermissionSet;
  readonly events: readonly string[];
}

/** The project's own manifest at the repository root. */
export const PROJECT_MANIFEST = fileURLToPath(new URL("../../app.yml", import.meta.url));

export function loadAppManifest(path: string = PROJECT_MANIFEST): AppManifest {
  const raw = parse(readFileSync(path, "utf8")) as {
    default_permissions?: Record<string, unknown>;
    default_events?: unknown;
  } | null;
  const permissions: Record<string, "read" | "write"> = { metadata: "read" };
  for (const [name, level] of Object.entries(raw?.default_permissions ?? {})) {
    if (level !== "read" && level !== "write") throw new Error(`${path}: ${name} must be read or write`);
    permissions[name] = level;
  }
  const events = Array.isArray(raw?.default_events) ? raw.default_events.map(String) : [];
  return { permissions, events };
}
