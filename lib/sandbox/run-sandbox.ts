/**
 * The Action's sandbox for one run: the allowlist from config, or the registries of the
 * repository's ecosystems, plus the model API for a CLI agent that calls it itself (the built-in
 * agent's model calls come from Locus's own process, outside the sandbox).
 */
import { readdir } from "node:fs/promises";
import type { Provider } from "../agent/runner.ts";
import { createSandbox, type SandboxMode } from "./create-sandbox.ts";
import { defaultAllowedHosts } from "./host-patterns.ts";
import type { Sandbox } from "./sandbox.ts";

export interface RunSandboxOptions {
  readonly mode: SandboxMode;
  /** `sandbox.network.allow`; absent means the ecosystems' registries. */
  readonly allow: readonly string[] | undefined;
  readonly workspace: string;
  readonly provider: Provider;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const MODEL_API: Readonly<Partial<Record<Provider, { readonly variable: string; readonly host: string }>>> = {
  "claude-code": { variable: "ANTHROPIC_BASE_URL", host: "api.anthropic.com" },
  codex: { variable: "OPENAI_BASE_URL", host: "api.openai.com" },
};

export async function createRunSandbox(options: RunSandboxOptions): Promise<Sandbox> {
  const allow = [...(options.allow ?? defaultAllowedHosts(await readdir(options.workspace)))];
  const model = MODEL_API[options.provider];
  if (model) allow.push(modelHost(options.env[model.variable]) ?? model.host);
  return createSandbox({ mode: options.mode, allow, env: options.env });
}

function modelHost(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
