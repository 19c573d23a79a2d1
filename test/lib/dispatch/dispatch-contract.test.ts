/**
 * The one contract between the app, the workflows and the Action, held in
 * six places that must agree: the app manifest (`app.yml`), the workflows
 * under `.github/workflows/`, the caller workflow the README tells users to
 * copy, `action.yml`, the app's dispatch code (inputs and run names) and the
 * simulator's reading of `run-name`. GitHub refuses or silently degrades on
 * every disagreement (a token asking beyond the app's grant, an input the
 * workflow does not declare, a run the app cannot link back to its work), so
 * each one fails here first.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  MODES,
  dispatchInputs,
  dispatchTarget,
  parseRunName,
  runName,
  type DispatchRequest,
} from "../../../lib/dispatch/dispatch-inputs.ts";
import { loadAppManifest } from "../../../sandbox/github-sim/app-manifest.ts";
import { withinGrant, type Access } from "../../../sandbox/github-sim/token-permissions.ts";
import { MAX_DISPATCH_INPUTS } from "../../../sandbox/github-sim/workflow-dispatch-rules.ts";
import { evaluateTemplate } from "../../../sandbox/github-sim/workflow-expressions.ts";
import { simulatedRunName } from "../../../sandbox/world/app-on-simulator.ts";
import { readmeCallerWorkflow } from "../../../sandbox/world/caller-workflow.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const read = (path: string): string => readFileSync(join(root, path), "utf8");

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}
interface Job {
  permissions?: Record<string, Access>;
  steps?: Step[];
  uses?: string;
  with?: Record<string, unknown>;
  secrets?: Record<string, unknown>;
}
interface Workflow {
  "run-name"?: string;
  on?: {
    workflow_dispatch?: { inputs?: Record<string, unknown> } | null;
    workflow_call?: {
      inputs?: Record<string, unknown>;
      secrets?: Record<string, { required?: boolean } | null>;
    };
  };
  permissions?: Record<string, Access>;
  jobs: Record<string, Job>;
}

const manifest = loadAppManifest();
const readme = read("README.md");
const callerText = readmeCallerWorkflow(readme);
const caller = parse(callerText) as Workflow;
const workflowFiles = readdirSync(join(root, ".github/workflows")).filter((name) => /\.ya?ml$/.test(name));
const workflows = new Map(
  workflowFiles.map((name) => [name, parse(read(`.github/workflows/${name}`)) as Workflow]),
);
const reusable = workflows.get("locus.yml") as Workflow;
const action = parse(read("action.yml")) as { inputs: Record<string, unknown> };

/** Workflow permission names (`pull-requests`) as the app manifest and API spell them (`pull_requests`). */
function apiNames(permissions: Record<string, Access>): Record<string, Access> {
  return Object.fromEntries(
    Object.entries(permissions).map(([name, access]) => [name.replace(/-/g, "_"), access]),
  );
}

/** One request per mode, each with a target and a delivery, as the app and the stale sweep send them. */
const requests: DispatchRequest[] = MODES.map((mode) => ({
  mode,
  delivery: `d-${mode}`,
  ...(mode === "sprint" ? { milestone: 4 } : {}),
  ...(mode === "iterate" || mode === "review" || mode === "fix-ci" || mode === "rebase"
    ? { pr: 12 }
    : { issues: [7, 9] }),
  command: mode === "ask" || mode === "plan" ? "why?" : "",
}));

describe("permissions", () => {
  it("the app's grant never includes `workflows`", () => {
    expect(Object.keys(manifest.permissions)).not.toContain("workflows");
  });

  it("every installation token a workflow mints asks for no more than the app's grant", () => {
    const asked: string[] = [];
    for (const [name, workflow] of workflows) {
      for (const job of Object.values(workflow.jobs)) {
        for (const step of job.steps ?? []) {
          if (!step.uses?.startsWith("actions/create-github-app-token@")) continue;
          const permissions = Object.entries(step.with ?? {})
            .filter(([key]) => key.startsWith("permission-"))
            .map(([key, access]) => [key.slice("permission-".length), String(access) as Access] as const);
          const beyond = permissions.filter(
            ([permission, access]) => !withinGrant(apiNames({ [permission]: access }), manifest.permissions),
          );
          expect(beyond, `${name} asks its app token for more than app.yml grants`).toEqual([]);
          asked.push(...permissions.map(([permission]) => permission));
        }
      }
    }
    expect(asked).toContain("contents");
  });

  it("the job ends by default before the app's installation token (one hour) expires", () => {
    const declared = reusable.on?.workflow_call?.inputs?.["timeout-minutes"] as
      { default?: number } | undefined;
    expect(declared?.default).toBeLessThan(60);
    const job = Object.values(reusable.jobs)[0] as { "timeout-minutes"?: string } | undefined;
    expect(job?.["timeout-minutes"]).toBe(`\${{ inputs.timeout-minutes || ${declared?.default} }}`);
  });

  it("the reusable workflow asks for no more than the README's caller grants it", () => {
    const granted = apiNames(caller.permissions ?? {});
    const asked = [
      reusable.permissions ?? {},
      ...Object.values(reusable.jobs).map((job) => job.permissions ?? {}),
    ];
    for (const permissions of asked) expect(withinGrant(apiNames(permissions), granted)).toBe(true);
  });
});

describe("inputs", () => {
  const sent = new Set(requests.flatMap((request) => Object.keys(dispatchInputs(request))));

  it("every input the app sends is declared by the README's caller and by the reusable workflow", () => {
    for (const declared of [caller.on?.workflow_dispatch?.inputs, reusable.on?.workflow_call?.inputs]) {
      expect([...sent].filter((input) => !(input in (declared ?? {})))).toEqual([]);
    }
    expect(sent.size).toBeLessThanOrEqual(MAX_DISPATCH_INPUTS);
  });

  it("the caller passes only inputs and secrets the reusable workflow declares, and every required secret", () => {
    const call = Object.values(caller.jobs).find((job) =>
      job.uses?.includes("/.github/workflows/locus.yml@"),
    );
    const declaredSecrets = reusable.on?.workflow_call?.secrets ?? {};
    expect(
      Object.keys(call?.with ?? {}).filter((input) => !(input in (reusable.on?.workflow_call?.inputs ?? {}))),
    ).toEqual([]);
    expect(Object.keys(call?.secrets ?? {}).filter((secret) => !(secret in declaredSecrets))).toEqual([]);
    const required = Object.entries(declaredSecrets).filter(([, spec]) => spec?.required === true);
    expect(required.map(([secret]) => secret).filter((secret) => !(secret in (call?.secrets ?? {})))).toEqual(
      [],
    );
  });

  it("every workflow step running the Action passes only inputs action.yml declares", () => {
    for (const [name, workflow] of workflows) {
      for (const job of Object.values(workflow.jobs)) {
        for (const step of job.steps ?? []) {
          if (!step.uses?.startsWith("locus-dev/locus@")) continue;
          const undeclared = Object.keys(step.with ?? {}).filter((input) => !(input in action.inputs));
          expect(undeclared, `${name} passes the Action inputs it does not declare`).toEqual([]);
        }
      }
    }
  });
});

describe("run names", () => {
  it("GitHub's evaluation of each run-name names the run the app dispatched, as the app parses it", () => {
    for (const request of requests) {
      const inputs = dispatchInputs(request);
      const expected = { mode: request.mode, target: dispatchTarget(request), delivery: request.delivery };
      const contexts = { inputs, github: { run_id: "99" } };
      for (const workflow of [caller, reusable]) {
        expect(parseRunName(evaluateTemplate(workflow["run-name"] ?? "", contexts))).toEqual(expected);
      }
      expect(parseRunName(simulatedRunName({ inputs }))).toEqual(expected);
      expect(parseRunName(runName(request.mode, dispatchTarget(request), request.delivery))).toEqual(
        expected,
      );
    }
  });

  it("the scheduled sweep's run is named as a stale run the app recognises", () => {
    const stale = workflows.get("locus-stale.yml")?.["run-name"] ?? "";

    const name = evaluateTemplate(stale, { github: { run_id: "42" } });

    expect(parseRunName(name)).toEqual({ mode: "stale", target: undefined, delivery: "stale-42" });
  });
});

describe("the README's install steps", () => {
  const install = readme.slice(
    readme.indexOf("## Install on GitHub"),
    readme.indexOf("\n## ", readme.indexOf("## Install on GitHub") + 1),
  );

  function namesAfter(kind: "secret" | "variable"): string[] {
    const list =
      new RegExp(`\\b${kind}s?\\s+((?:\`[A-Z_]+\`(?:,\\s+|\\s+and\\s+)?)+)`).exec(install)?.[1] ?? "";
    return [...list.matchAll(/`([A-Z_]+)`/g)].map((match) => match[1] ?? "").sort();
  }

  it("name each secret and variable the caller workflow reads, as a secret or a variable", () => {
    const secrets = [...callerText.matchAll(/\bsecrets\.([A-Z_]+)/g)].map((match) => match[1] ?? "").sort();
    const variables = [...callerText.matchAll(/\bvars\.([A-Z_]+)/g)].map((match) => match[1] ?? "").sort();

    expect(namesAfter("secret")).toEqual(secrets);
    expect(namesAfter("variable")).toEqual(variables);
  });

  it("list the permissions app.yml grants", () => {
    for (const [name, access] of Object.entries(manifest.permissions)) {
      expect(install).toContain(`${name.replace(/_/g, " ")} ${access}`);
    }
  });
});
