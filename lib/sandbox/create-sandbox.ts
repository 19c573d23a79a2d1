/**
 * The run's sandbox from config: `required` (the default) makes a bubblewrap sandbox or stops
 * the run, before any model is asked, saying how to get one; `off` runs without one.
 */
import { createBubblewrapSandbox } from "./bubblewrap-sandbox.ts";
import { findExecutableSync } from "./find-executable-sync.ts";
import { HOW_TO_GET_A_SANDBOX, probeBubblewrap } from "./probe.ts";
import type { HostCredential } from "./registry-credentials.ts";
import type { Sandbox } from "./sandbox.ts";
import { unsandboxed } from "./unsandboxed.ts";

export type SandboxMode = "required" | "off";

class SandboxUnavailableError extends Error {
  constructor(reason: string) {
    super(`No sandbox for the agent: ${reason}. ${HOW_TO_GET_A_SANDBOX}`);
    this.name = "SandboxUnavailableError";
  }
}

export interface CreateSandboxOptions {
  readonly mode: SandboxMode;
  readonly allow: readonly string[];
  /** Private registries' credentials: their hosts are allowed too, and the proxy adds them. */
  readonly credentials?: readonly HostCredential[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly node?: string;
}

export async function createSandbox(options: CreateSandboxOptions): Promise<Sandbox> {
  if (options.mode === "off") return unsandboxed();
  const probe = probeBubblewrap(options.env["PATH"]);
  if (!probe.ok) throw new SandboxUnavailableError(probe.reason);
  const socat = findExecutableSync("socat", options.env["PATH"]);
  return createBubblewrapSandbox({
    bwrap: probe.bwrap,
    allow: [...options.allow, ...(options.credentials ?? []).map((credential) => credential.host)],
    credentials: options.credentials ?? [],
    env: options.env,
    ...(options.node ? { node: options.node } : {}),
    ...(socat ? { socat } : {}),
  });
}
