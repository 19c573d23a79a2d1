/**
 * The Action's sandbox for one run: the allowlist from config, or the registries of the
 * repository's ecosystems, plus the model API for an agent that calls it itself from inside the
 * sandbox: a CLI provider's own API, and for an ACP agent the APIs whose credentials
 * `agent.acp.env` hands it (the built-in agent's model calls come from Locus's own process,
 * outside the sandbox).
 */
import { readdir } from "node:fs/promises";
import type { Provider } from "./runner.ts";
import { createSandbox, type SandboxMode } from "../sandbox/create-sandbox.ts";
import { defaultAllowedHosts } from "../sandbox/host-patterns.ts";
import type { HostCredential } from "../sandbox/registry-credentials.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";

export interface RunSandboxOptions {
  readonly mode: SandboxMode;
  /** `sandbox.network.allow`; absent means the ecosystems' registries. */
  readonly allow: readonly string[] | undefined;
  /** Private registries' credentials, which the egress proxy adds (their hosts are allowed too). */
  readonly credentials?: readonly HostCredential[];
  readonly workspace: string;
  readonly provider: Provider;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** For provider `acp`: the variables `agent.acp.env` passes to the agent. */
  readonly acpEnv?: readonly string[];
}

interface ModelApi {
  /** The variable that moves the API elsewhere (a proxy, a stand-in); its host is allowed instead. */
  readonly baseUrl: string;
  readonly host: string;
  /** Variables that give an agent access to this API. */
  readonly credentials: readonly string[];
}

const ANTHROPIC: ModelApi = {
  baseUrl: "ANTHROPIC_BASE_URL",
  host: "api.anthropic.com",
  credentials: ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"],
};
const OPENAI: ModelApi = {
  baseUrl: "OPENAI_BASE_URL",
  host: "api.openai.com",
  credentials: ["OPENAI_API_KEY", "CODEX_API_KEY"],
};
const GEMINI: ModelApi = {
  baseUrl: "GOOGLE_GEMINI_BASE_URL",
  host: "generativelanguage.googleapis.com",
  credentials: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
};

function modelApis(provider: Provider, acpEnv: readonly string[]): ModelApi[] {
  switch (provider) {
    case "builtin":
      return [];
    case "claude-code":
      return [ANTHROPIC];
    case "codex":
      return [OPENAI];
    case "acp":
      return [ANTHROPIC, OPENAI, GEMINI].filter((api) =>
        [api.baseUrl, ...api.credentials].some((name) => acpEnv.includes(name)),
      );
  }
}

/** The model API hosts the agent reaches from inside the sandbox (pure). */
export function modelHosts(
  provider: Provider,
  env: Readonly<Record<string, string | undefined>>,
  acpEnv: readonly string[] = [],
): string[] {
  // An ACP agent is moved elsewhere only when `agent.acp.env` hands it the variable that moves it.
  const moved = (api: ModelApi) =>
    provider !== "acp" || acpEnv.includes(api.baseUrl) ? env[api.baseUrl] : undefined;
  return modelApis(provider, acpEnv).map((api) => modelHost(moved(api)) ?? api.host);
}

export async function createRunSandbox(options: RunSandboxOptions): Promise<Sandbox> {
  const allow = [
    ...(options.allow ?? defaultAllowedHosts(await readdir(options.workspace))),
    ...modelHosts(options.provider, options.env, options.acpEnv),
  ];
  return createSandbox({
    mode: options.mode,
    allow,
    env: options.env,
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });
}

/**
 * The allowlist rule for a moved model API: its host, and its port when the URL names one, so a
 * gateway on the runner's loopback (`http://127.0.0.1:8080`) allows exactly that port and never
 * the machine's other services.
 */
function modelHost(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.port === "" ? parsed.hostname : `${parsed.hostname}:${parsed.port}`;
  } catch {
    return undefined;
  }
}
