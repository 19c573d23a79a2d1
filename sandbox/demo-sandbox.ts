/**
 * Whether `npm run demo` runs its agent in the sandbox. With bubblewrap it
 * always does. Without it, the scripted agent (the offline replay model) runs
 * unsandboxed, since it only replays recorded tool calls on the sample
 * project; a real model does not, unless the user turns the sandbox off
 * explicitly with LOCUS_DEMO_SANDBOX=off.
 */
import type { ProbeResult } from "../lib/sandbox/probe.ts";

export const DEMO_SANDBOX_SWITCH = "LOCUS_DEMO_SANDBOX";

export const HOW_TO_SEE_THE_SANDBOX =
  "To see the sandbox, install bubblewrap and socat (Debian/Ubuntu: `sudo apt-get install -y bubblewrap socat`) and run `npm run demo` again.";

export type DemoSandbox =
  | { readonly kind: "bubblewrap" }
  | { readonly kind: "off"; readonly message: string }
  | { readonly kind: "stop"; readonly message: string };

export function demoSandbox(options: {
  readonly probe: ProbeResult;
  readonly realModel: boolean;
  /** The value of LOCUS_DEMO_SANDBOX. */
  readonly switchValue: string | undefined;
}): DemoSandbox {
  const off = options.switchValue?.trim().toLowerCase() === "off";
  if (options.probe.ok && !off) return { kind: "bubblewrap" };
  const why = options.probe.ok
    ? `${DEMO_SANDBOX_SWITCH}=off is set`
    : `No sandbox on this machine: ${options.probe.reason}`;
  if (!options.realModel) {
    return {
      kind: "off",
      message:
        `${why}. The demo's scripted agent (the offline replay model) runs with the sandbox OFF: its commands run directly on this machine, in the demo's temporary directories. ${options.probe.ok ? "" : HOW_TO_SEE_THE_SANDBOX}`.trim(),
    };
  }
  if (off) {
    return {
      kind: "off",
      message: `${why}: the real model's commands run with the sandbox OFF, unconfined, with this machine's files, network and processes.`,
    };
  }
  return {
    kind: "stop",
    message: `${why}. A real model (ANTHROPIC_API_KEY is set) runs commands it chose itself, so the demo will not run it without a sandbox. ${HOW_TO_SEE_THE_SANDBOX} Or run \`${DEMO_SANDBOX_SWITCH}=off npm run demo\` to run it unconfined on purpose, or unset ANTHROPIC_API_KEY to watch the scripted agent.`,
  };
}
